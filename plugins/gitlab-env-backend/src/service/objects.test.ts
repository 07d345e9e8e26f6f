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
