import { computeHealth } from '../computeHealth';
import { condition, manifest } from '../__testUtils__/objects';

const crd = (conditions?: object[]) =>
  manifest(
    'apiextensions.k8s.io/v1',
    'CustomResourceDefinition',
    {
      group: 'shop.example.com',
      names: { kind: 'Basket', plural: 'baskets' },
      scope: 'Namespaced',
    },
    conditions ? { conditions } : undefined,
    { name: 'baskets.shop.example.com', namespace: undefined },
  );

const established = [
  condition('NamesAccepted', 'True', 'NoConflicts', 'no conflicts found'),
  condition(
    'Established',
    'True',
    'InitialNamesAccepted',
    'the initial names have been accepted',
  ),
];

describe('CustomResourceDefinition', () => {
  it('is healthy once established', () => {
    expect(computeHealth(crd(established))).toEqual({
      status: 'Healthy',
      message: 'CRD is healthy',
    });
  });
  it('waits for status conditions', () => {
    expect(computeHealth(crd())).toEqual({
      status: 'Progressing',
      message: 'Status conditions not found',
    });
  });
  it('reports a terminating CRD', () => {
    expect(
      computeHealth(
        crd([
          ...established,
          condition(
            'Terminating',
            'True',
            'InstanceDeletionInProgress',
            'CustomResource deletion is in progress',
          ),
        ]),
      ),
    ).toEqual({
      status: 'Progressing',
      message: 'CRD is terminating: CustomResource deletion is in progress',
    });
  });
  it('is degraded by conflicting names or a non-structural schema', () => {
    expect(
      computeHealth(
        crd([
          condition(
            'NamesAccepted',
            'False',
            'PluralConflict',
            '"baskets" is already in use',
          ),
          condition(
            'Established',
            'False',
            'NotAccepted',
            'not all names are accepted',
          ),
        ]),
      ),
    ).toEqual({
      status: 'Degraded',
      message: 'CRD names have not been accepted: "baskets" is already in use',
    });
    expect(
      computeHealth(
        crd([
          ...established,
          condition(
            'NonStructuralSchema',
            'True',
            'Violations',
            'spec.versions[0].schema.openAPIV3Schema.type: Required value',
          ),
        ]),
      ),
    ).toEqual({
      status: 'Degraded',
      message:
        'Schema violations found: spec.versions[0].schema.openAPIV3Schema.type: Required value',
    });
  });
  it('tells installing from not established', () => {
    expect(
      computeHealth(
        crd([
          condition(
            'Established',
            'False',
            'Installing',
            'the initial names have been accepted',
          ),
        ]),
      ),
    ).toEqual({ status: 'Progressing', message: 'CRD is being installed' });
    expect(
      computeHealth(crd([condition('NamesAccepted', 'True', 'NoConflicts')])),
    ).toEqual({ status: 'Degraded', message: 'CRD is not established' });
  });
});
