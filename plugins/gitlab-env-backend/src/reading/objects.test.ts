import { normalizeObject, REDACTED_SECRET_VALUE } from './objects';

describe('normalizeObject', () => {
  it('fills kind and apiVersion and drops managedFields and the last-applied copy', () => {
    expect(
      normalizeObject(
        {
          metadata: {
            name: 'web',
            managedFields: [{ manager: 'kubectl' }],
            annotations: {
              'kubectl.kubernetes.io/last-applied-configuration': '{}',
              keep: 'me',
            },
          },
          spec: { replicas: 2 },
        },
        { apiVersion: 'apps/v1', kind: 'Deployment' },
      ),
    ).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', annotations: { keep: 'me' } },
      spec: { replicas: 2 },
    });
  });

  it('keeps what is evidence of drift: fields of a manager other than Flux or Kubernetes, a last-applied copy that differs', () => {
    const foreign = {
      manager: 'kubectl-edit',
      operation: 'Update',
      time: '2026-11-21T09:30:00Z',
      fieldsV1: { 'f:data': { 'f:CURRENCY': {} } },
    };
    const lastApplied = JSON.stringify({ data: { CURRENCY: 'USD' } });
    const object = normalizeObject(
      {
        metadata: {
          name: 'config',
          managedFields: [
            {
              manager: 'kustomize-controller',
              operation: 'Apply',
              fieldsV1: { 'f:data': { 'f:A': {} } },
            },
            foreign,
          ],
          annotations: {
            'kubectl.kubernetes.io/last-applied-configuration': lastApplied,
          },
        },
        data: { CURRENCY: 'EUR', A: '1' },
      },
      { apiVersion: 'v1', kind: 'ConfigMap' },
    );
    expect(object?.metadata?.managedFields).toEqual([foreign]);
    expect(object?.metadata?.annotations).toEqual({
      'kubectl.kubernetes.io/last-applied-configuration': lastApplied,
    });
  });

  it('drops every copy of a Secret, drift evidence included', () => {
    const secret = normalizeObject(
      {
        metadata: {
          name: 'db',
          managedFields: [
            {
              manager: 'kubectl-edit',
              operation: 'Update',
              fieldsV1: { 'f:data': { 'f:password': {} } },
            },
          ],
          annotations: {
            'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
              data: { password: 'c2VjcmV0' },
            }),
          },
        },
        data: { password: 'b3RoZXI=' },
      },
      { apiVersion: 'v1', kind: 'Secret' },
    );
    expect(secret?.metadata).toEqual({ name: 'db', annotations: {} });
    expect(JSON.stringify(secret)).not.toContain('c2VjcmV0');
  });

  it("keeps a Secret's keys and type but never its values", () => {
    const secret = normalizeObject(
      {
        metadata: {
          name: 'deployer-token',
          annotations: { 'kubernetes.io/service-account.name': 'deployer' },
        },
        type: 'kubernetes.io/service-account-token',
        data: { token: 'ZXlKaGJHY2lPaUpTVXpJMU5pSXNJbXRw', 'ca.crt': 'LS0t' },
        stringData: { extra: 'plain text' },
      },
      { apiVersion: 'v1', kind: 'Secret' },
    );
    expect(secret).toMatchObject({
      type: 'kubernetes.io/service-account-token',
      data: { token: REDACTED_SECRET_VALUE, 'ca.crt': REDACTED_SECRET_VALUE },
      stringData: { extra: REDACTED_SECRET_VALUE },
    });
    expect(JSON.stringify(secret)).not.toMatch(/ZXlK|LS0t|plain text/);
  });

  it('leaves data of other kinds alone', () => {
    expect(
      normalizeObject(
        { metadata: { name: 'settings' }, data: { LOG_LEVEL: 'debug' } },
        { apiVersion: 'v1', kind: 'ConfigMap' },
      )?.data,
    ).toEqual({ LOG_LEVEL: 'debug' });
  });

  it('is not an object without metadata', () => {
    expect(
      normalizeObject({ spec: {} }, { apiVersion: 'v1', kind: 'Pod' }),
    ).toBeUndefined();
  });
});
