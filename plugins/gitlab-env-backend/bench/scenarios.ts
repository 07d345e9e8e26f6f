// Scenarios the benchmarks serve, built the same way in the simulator's
// process and in the benchmark's (which needs the catalog entities).
import { faultSuiteScenario } from '../src/__testUtils__/faultSuite';
import { KubeObject, generateScenario } from '@gitlab-env/gitlab-simulator';

function customResourceDefinition(index: number): KubeObject {
  const kind = `Widget${index}`;
  const plural = `widget${index}s`;
  const group = `bench${index}.example.com`;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { kind, plural, singular: `widget${index}` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
        },
      ],
    },
  };
}

function customResource(index: number, namespace: string): KubeObject {
  return {
    apiVersion: `bench${index}.example.com/v1`,
    kind: `Widget${index}`,
    metadata: {
      name: `widget-${index}`,
      namespace,
      uid: `widget-${index}-${namespace}`,
      creationTimestamp: new Date().toISOString(),
      labels: { 'app.kubernetes.io/part-of': 'bench' },
    },
    spec: {},
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

/**
 * One project with 3 environments whose cluster serves the built-in kinds
 * plus `customKinds` custom resource kinds, one object of each per namespace.
 */
export function entityPageScenario(customKinds: number) {
  const scenario = generateScenario({
    projects: 1,
    environmentsPerProject: 3,
    objectsPerEnvironment: 20,
    seed: 5,
  });
  const namespaces = scenario.projects.flatMap(p =>
    p.environments.map(e => e.kubernetesNamespace!),
  );
  const kinds = Array.from({ length: customKinds }, (_, i) => i + 1);
  scenario.clusters[0].objects.push(
    ...kinds.map(customResourceDefinition),
    ...namespaces.flatMap(ns => kinds.map(i => customResource(i, ns))),
  );
  return scenario;
}

export function overviewScenario(entities: number) {
  return generateScenario({
    projects: entities,
    environmentsPerProject: 4,
    objectsPerEnvironment: 20,
    seed: 7,
  });
}

/** One project whose environments all deploy through one agent. */
export function liveScenario(
  environments: number,
  objectsPerEnvironment: number,
) {
  return generateScenario({
    projects: 1,
    environmentsPerProject: environments,
    objectsPerEnvironment,
    seed: 9,
  });
}

export type BenchScenario =
  | { name: 'live'; environments: number; objectsPerEnvironment: number }
  | { name: 'entity-page'; customKinds: number }
  | { name: 'overview'; entities: number }
  | { name: 'fault-suite' };

export function buildScenario(spec: BenchScenario) {
  if (spec.name === 'fault-suite') return faultSuiteScenario();
  if (spec.name === 'live')
    return liveScenario(spec.environments, spec.objectsPerEnvironment);
  return spec.name === 'entity-page'
    ? entityPageScenario(spec.customKinds)
    : overviewScenario(spec.entities);
}
