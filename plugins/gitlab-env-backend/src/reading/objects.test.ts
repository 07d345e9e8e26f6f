import { MAX_JSON_DEPTH } from '../validation/json';
import {
  inspectObject,
  isCoreSecret,
  normalizeObject,
  redactSecretsDeep,
  REDACTED_SECRET_VALUE,
} from './objects';
import { StringPool } from './stringPool';

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

  it.each([
    ['v1beta1', 'Secret'],
    ['v2', 'Secret'],
    ['core/v1', 'Secret'],
    [undefined, 'Secret'],
    [42, 'secret'],
    ['v1', 'SECRET'],
  ])(
    'redacts a core Secret by group and kind whatever its version: %p %p',
    (apiVersion, kind) => {
      const item = {
        apiVersion,
        kind,
        metadata: { name: 'db' },
        data: { url: 'cG9zdGdyZXM6Ly9hZG1pbjpodW50ZXIy' },
        stringData: { password: 'hunter2' },
      };
      // As a repository manifest is normalized: planned as what it claims.
      const object = normalizeObject(item, {
        apiVersion: String(apiVersion),
        kind,
      });
      expect(JSON.stringify(object)).not.toMatch(/cG9zdGdy|hunter2/);
      // Embedded anywhere (a List, a watch event's object).
      const event = { type: 'ADDED', object: { kind: 'List', items: [item] } };
      redactSecretsDeep(event);
      expect(JSON.stringify(event)).not.toMatch(/cG9zdGdy|hunter2/);
    },
  );

  it('keys redaction on the core group: a Secret kind of another group is not a core Secret', () => {
    expect(isCoreSecret('v1', 'Secret')).toBe(true);
    expect(isCoreSecret('v1beta1', 'Secret')).toBe(true);
    expect(isCoreSecret('secrets-store.csi.x-k8s.io/v1', 'Secret')).toBe(false);
    expect(isCoreSecret('v1', 'ConfigMap')).toBe(false);
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

/** A Secret inside `levels` nested wrappers, as a custom resource may embed one. */
function embedded(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: 'inner',
      managedFields: [{ manager: 'kubectl', fieldsV1: { 'f:data': {} } }],
    },
    data: { token: 'c2VjcmV0LXRva2Vu' },
  };
  for (let i = 0; i < levels; i++)
    value = i % 2 ? { wrapped: value } : { items: [value] };
  return value;
}

describe('redactSecretsDeep, walk after walk', () => {
  it('redacts whatever the walk before it was: refused midway, wide, or alike', () => {
    const wide = { items: Array.from({ length: 10_000 }, () => ({ a: {} })) };
    const walks: [object, number, boolean][] = [
      [embedded(MAX_JSON_DEPTH), MAX_JSON_DEPTH, false],
      [wide, MAX_JSON_DEPTH, true],
      [embedded(3), MAX_JSON_DEPTH, true],
      [embedded(3), Infinity, true],
    ];
    expect(
      walks.map(([value, depth]) => redactSecretsDeep(value, depth)),
    ).toEqual(walks.map(([, , whole]) => whole));
    for (const [value] of walks.slice(1))
      expect(JSON.stringify(value)).not.toContain('c2VjcmV0');
  });
});

describe('inspectObject of an owned item', () => {
  const deployment = () => ({
    metadata: {
      name: 'web',
      namespace: 'shop',
      managedFields: [{ manager: 'kube-controller-manager' }],
      annotations: {
        'kubectl.kubernetes.io/last-applied-configuration': '{}',
        keep: 'me',
      },
    },
    spec: { replicas: 2 },
  });
  const planned = { apiVersion: 'apps/v1', kind: 'Deployment' };

  it('becomes the object, equal to what a copy of it becomes', () => {
    const item = deployment();
    const copied = normalizeObject(structuredClone(item), planned);
    const { object } = inspectObject(item, planned, { owned: true });
    expect(object).toBe(item);
    expect(object).toEqual(copied);
    expect(Object.keys(object!)).toEqual(Object.keys(copied!));
    expect(object?.metadata).toEqual({
      name: 'web',
      namespace: 'shop',
      annotations: { keep: 'me' },
    });
  });

  it('leaves an item it does not own unchanged at its top and in its metadata', () => {
    for (const item of [deployment(), { metadata: { name: 'plain' } }]) {
      const before = structuredClone(item);
      const { object } = inspectObject(item, planned);
      expect(object).not.toBe(item);
      expect(object?.metadata).not.toBe(item.metadata);
      expect(item).toEqual(before);
    }
  });

  it('redacts a Secret embedded deep in it, and one it is or claims to be', () => {
    const item = {
      metadata: { name: 'bundle', namespace: 'shop' },
      spec: embedded(40),
    };
    const { object } = inspectObject(
      item,
      { apiVersion: 'example.com/v1', kind: 'Bundle' },
      { owned: true },
    );
    const text = JSON.stringify(object);
    expect(text).not.toContain('c2VjcmV0LXRva2Vu');
    expect(text).not.toContain('managedFields');
    expect(text).toContain(REDACTED_SECRET_VALUE);
    for (const [claimed, asked] of [
      ['Secret', 'Secret'],
      ['Secret', 'ConfigMap'],
      [undefined, 'Secret'],
    ]) {
      const secret = inspectObject(
        {
          kind: claimed,
          metadata: { name: 'db' },
          data: { password: 'aHVudGVyMg==' },
        },
        { apiVersion: 'v1', kind: asked! },
        { owned: true },
      ).object;
      expect(secret?.data).toEqual({ password: REDACTED_SECRET_VALUE });
    }
  });

  it('refuses what nests too deep or breaks the object promises, as a copy is refused', () => {
    const deep = { metadata: { name: 'deep' }, spec: embedded(MAX_JSON_DEPTH) };
    expect(inspectObject(deep, planned, { owned: true }).problem).toBe(
      `it nests deeper than ${MAX_JSON_DEPTH} levels`,
    );
    expect(
      inspectObject(
        { metadata: { name: 'web', labels: { app: 1 } } },
        planned,
        { owned: true },
      ).problem,
    ).toBe('its metadata.labels are not strings');
  });
});

describe('inspectObject pooling strings as it redacts', () => {
  const item = (name: string) => ({
    metadata: {
      name,
      namespace: 'production-eu',
      uid: `uid-of-${name}`,
      labels: { 'app.kubernetes.io/part-of': 'storefront-eu' },
    },
    spec: {
      containers: [{ image: 'registry.example.com/web:1.2.3' }],
      args: ['--listen-address'],
      bundle: embedded(40),
    },
  });
  const planned = { apiVersion: 'example.com/v1', kind: 'Bundle' };

  it('pools the short values it walks, at any depth, objects equal to a walk without a pool', () => {
    const strings = new StringPool();
    const pooled = inspectObject(item('storefront-web-1'), planned, {
      owned: true,
      strings,
    }).object;
    expect(pooled).toEqual(normalizeObject(item('storefront-web-1'), planned));
    for (const value of [
      'production-eu',
      'storefront-eu',
      'registry.example.com/web:1.2.3',
      '--listen-address',
    ])
      expect(strings.has(value)).toBe(true);
    expect(strings.has('uid-of-storefront-web-1')).toBe(false);
    // A second object's values are the pool's: nothing new but its name.
    const size = strings.size;
    inspectObject(item('storefront-web-2'), planned, { owned: true, strings });
    expect(strings.size).toBe(size + 1);
  });

  it('still redacts a Secret deep in the item, and never pools its values', () => {
    const strings = new StringPool();
    const { object } = inspectObject(item('storefront-web-1'), planned, {
      owned: true,
      strings,
    });
    const text = JSON.stringify(object);
    expect(text).not.toContain('c2VjcmV0LXRva2Vu');
    expect(text).not.toContain('managedFields');
    expect(text).toContain(REDACTED_SECRET_VALUE);
    expect(strings.has('c2VjcmV0LXRva2Vu')).toBe(false);
    expect(
      inspectObject(
        { metadata: { name: 'deep' }, spec: embedded(MAX_JSON_DEPTH) },
        planned,
        { owned: true, strings },
      ).problem,
    ).toBe(`it nests deeper than ${MAX_JSON_DEPTH} levels`);
  });
});
