import fc from 'fast-check';
import { GitlabEnvironment } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabEnvFailure } from '../errors';
import {
  checkEnvironmentValues,
  checkFluxResourcePath,
} from './environmentValues';
import { collectionPath, objectPath } from './kubePaths';

const KAS = 'https://gitlab.example.com/-/kubernetes-agent/k8s-proxy';
const PLANNED_NAMESPACE = 'shop';

/** What fetch would request: the URL parser resolves `.`/`..` and decodes nothing else. */
function requested(path: string): string {
  return new URL(`${KAS}${path}`).pathname.slice(new URL(KAS).pathname.length);
}

/** Segments of a collection or object path inside `namespace`, or undefined. */
function insideNamespace(path: string, namespace: string): boolean {
  const segments = requested(path).split('/').slice(1);
  const [root] = segments;
  const prefixLength: Record<string, number> = { api: 2, apis: 3 };
  const rest = prefixLength[root]
    ? segments.slice(prefixLength[root])
    : undefined;
  if (!rest || requested(path) !== path) return false;
  return (
    rest[0] === 'namespaces' &&
    rest[1] === namespace &&
    (rest.length === 3 || rest.length === 4) &&
    rest.every(s => s !== '' && s !== '.' && s !== '..')
  );
}

function refusedWithTypedError(fn: () => unknown): boolean {
  try {
    fn();
    return false;
  } catch (error) {
    return (
      error instanceof GitlabEnvFailure &&
      error.detail.code === 'INVALID_ENVIRONMENT_SETTING'
    );
  }
}

/** Strings that look like what an attacker would try, mixed with any string at all. */
const hostile = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '..',
    '.',
    '',
    '%2e%2e',
    '..%2f..',
    'a/../b',
    'kube-system',
    'shop/../kube-system',
    'secrets',
    '\\..\\',
    'a?b=c',
    'a#b',
    ' shop',
    'x'.repeat(300),
  ),
  fc
    .array(fc.constantFrom('..', '.', '%2F', '/', 'a', 'v1', 'secrets', '?'), {
      maxLength: 6,
    })
    .map(parts => parts.join('')),
);

const source = 'GitLab environment production';

describe('path builders fed arbitrary strings', () => {
  it('either refuse with a typed error or build a path inside the planned namespace', () => {
    fc.assert(
      fc.property(
        hostile,
        hostile,
        hostile,
        hostile,
        hostile,
        (group, version, plural, namespace, name) => {
          const address = { group, version, plural };
          for (const build of [
            () => collectionPath(address, namespace, source),
            () => objectPath(address, namespace, name, source),
          ]) {
            let path: string;
            try {
              path = build();
            } catch {
              if (!refusedWithTypedError(build)) return false;
              continue;
            }
            if (!insideNamespace(path, namespace)) return false;
          }
          return true;
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('never turn a GitLab-provided namespace into a path outside it', () => {
    fc.assert(
      fc.property(hostile, namespace => {
        const build = () =>
          collectionPath(
            { group: '', version: 'v1', plural: 'secrets' },
            namespace,
            source,
          );
        try {
          return insideNamespace(build(), namespace);
        } catch {
          return refusedWithTypedError(build);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('check a Flux resource path segment by segment, so the object read stays in its namespace', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          hostile,
          fc
            .tuple(hostile, hostile, hostile, hostile, hostile)
            .map(([g, v, ns, p, n]) => `${g}/${v}/namespaces/${ns}/${p}/${n}`),
        ),
        value => {
          let flux;
          try {
            flux = checkFluxResourcePath(value, source);
          } catch (error) {
            return (
              error instanceof GitlabEnvFailure &&
              error.detail.code === 'INVALID_ENVIRONMENT_SETTING'
            );
          }
          return insideNamespace(
            objectPath(flux, flux.namespace, flux.name, source),
            flux.namespace,
          );
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('keep every valid name as Kubernetes writes it', () => {
    expect(
      objectPath(
        { group: '', version: 'v1', plural: 'secrets' },
        PLANNED_NAMESPACE,
        'deployer-token',
        source,
      ),
    ).toBe('/api/v1/namespaces/shop/secrets/deployer-token');
    expect(
      objectPath(
        { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'roles' },
        PLANNED_NAMESPACE,
        'system:controller:bootstrap',
        source,
      ),
    ).toBe(
      '/apis/rbac.authorization.k8s.io/v1/namespaces/shop/roles/system%3Acontroller%3Abootstrap',
    );
    expect(
      checkFluxResourcePath(
        'kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/shop',
        source,
      ),
    ).toMatchObject({ namespace: 'flux-system', name: 'shop' });
  });
});

describe('checkEnvironmentValues', () => {
  const environment: GitlabEnvironment = {
    id: '1',
    name: 'production',
    slug: 'production',
    tier: 'production',
    state: 'available',
    namespace: '..',
    fluxResourcePath:
      'kustomize.toolkit.fluxcd.io/v1/namespaces/../../../api/v1/secrets',
    agent: { id: '4/../5', name: 'prod' },
  };

  it('drops every value that breaks its grammar and names it with its source', () => {
    const checked = checkEnvironmentValues(environment);
    expect(checked.namespace).toBeUndefined();
    expect(checked.fluxResourcePath).toBeUndefined();
    expect(checked.agent).toBeUndefined();
    expect(checked.errors?.map(e => e.message)).toEqual([
      'GitLab environment production has Kubernetes namespace `..`, which is not a valid Kubernetes name (RFC 1123 label: lower-case letters, digits and -, at most 63).',
      'GitLab environment production has Flux resource path `kustomize.toolkit.fluxcd.io/v1/namespaces/../../../api/v1/secrets`, which is not <group>/<version>/namespaces/<namespace>/<plural>/<name>.',
      'GitLab environment production has agent id `4/../5`, which is not a numeric GitLab id.',
    ]);
    expect(checked.errors?.map(e => e.code)).toEqual([
      'INVALID_ENVIRONMENT_SETTING',
      'INVALID_ENVIRONMENT_SETTING',
      'INVALID_ENVIRONMENT_SETTING',
    ]);
  });

  it('leaves a valid environment as it is', () => {
    const valid = {
      ...environment,
      namespace: 'shop',
      fluxResourcePath:
        'helm.toolkit.fluxcd.io/v2/namespaces/flux-system/helmreleases/shop',
      agent: { id: '4', name: 'prod' },
    };
    expect(checkEnvironmentValues(valid)).toEqual(valid);
  });
});
