import { buildResourceGraph } from '../graph/buildResourceGraph';
import { LiveResourceGraph } from '../graph/LiveResourceGraph';
import { EnvironmentActionScope, KubernetesObject } from '../types';
import {
  fluxAppliesInto,
  isPlatformNamespace,
  readOnlyOf,
  readOnlyReason,
  targetKey,
} from './actionScope';

const scope: EnvironmentActionScope = {
  namespace: 'checkout',
  root: {
    group: 'kustomize.toolkit.fluxcd.io',
    kind: 'Kustomization',
    namespace: 'flux-system',
    name: 'checkout-api',
  },
  platformNamespaces: ['kube-*', 'gitlab-agent', 'gitlab-agent-*'],
  projectPathSlug: 'acme-shop-checkout-api',
  projectId: '102',
  repositories: ['acme/shop/checkout-api'],
};

const kustomization = (
  name: string,
  spec: Record<string, unknown>,
  inventory: string[] = [],
): KubernetesObject => ({
  apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
  kind: 'Kustomization',
  metadata: { name, namespace: 'flux-system', uid: name },
  spec,
  status: { inventory: { entries: inventory.map(id => ({ id, v: 'v1' })) } },
});

const root = kustomization(
  'checkout-api',
  { targetNamespace: 'checkout', dependsOn: [{ name: 'platform-infra' }] },
  ['checkout_checkout-api_apps_Deployment'],
);
const upstream = kustomization('platform-infra', {});
const source: KubernetesObject = {
  apiVersion: 'source.toolkit.fluxcd.io/v1',
  kind: 'GitRepository',
  metadata: { name: 'checkout-api', namespace: 'flux-system', uid: 'src' },
};
const deployment = (
  namespace: string,
  name: string,
  extra: Partial<KubernetesObject['metadata']> = {},
  image = 'registry.example.com/app:1',
): KubernetesObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace, uid: `${namespace}-${name}`, ...extra },
  spec: { template: { spec: { containers: [{ name: 'c', image }] } } },
});

const reason = (object: KubernetesObject) =>
  readOnlyReason(
    scope,
    targetKey({
      apiVersion: object.apiVersion!,
      kind: object.kind!,
      namespace: object.metadata?.namespace ?? '',
      name: object.metadata!.name!,
    }),
    object,
  );

describe('readOnlyReason: what an environment owns', () => {
  it('acts on its own root when it deploys into the owned namespace, and on that namespace’s objects', () => {
    expect(reason(root)).toBeUndefined();
    expect(reason(deployment('checkout', 'checkout-api'))).toBeUndefined();
  });

  it('never on what the root depends on, a source in the shared namespace, or another namespace', () => {
    expect(reason(upstream)).toMatch(
      /Kustomization flux-system\/platform-infra is a Flux object of flux-system other than this environment's own Kustomization flux-system\/checkout-api.*dependsOn.*never acted on/,
    );
    expect(reason(source)).toMatch(
      /a source in the shared namespace flux-system serves others too/,
    );
    expect(reason(deployment('storefront', 'storefront-web'))).toMatch(
      /outside the namespace this environment owns \(checkout\)/,
    );
  });

  it('never on the agent, the platform’s namespaces or cluster-scoped objects', () => {
    const agentk = deployment(
      'checkout',
      'agentk',
      {},
      'registry.gitlab.com/gitlab-org/cluster-integration/gitlab-agent/agentk:v17.11.0',
    );
    expect(reason(agentk)).toMatch(/the agent's own \(agentk\)/);
    expect(
      reason(
        deployment('checkout', 'gitlab-agent-v2', {
          labels: { 'app.kubernetes.io/name': 'gitlab-agent' },
        }),
      ),
    ).toMatch(/agent's own/);
    expect(reason(deployment('kube-system', 'coredns'))).toMatch(
      /lies in kube-system, where the agent or the cluster's platform runs/,
    );
    expect(
      readOnlyReason(scope, {
        group: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        namespace: '',
        name: 'reader',
      }),
    ).toMatch(/cluster-scoped/);
  });

  it('a HelmRelease root’s own HelmChart is part of it; its HelmRepository is shared', () => {
    const helm: EnvironmentActionScope = {
      ...scope,
      namespace: 'storefront-staging',
      root: {
        group: 'helm.toolkit.fluxcd.io',
        kind: 'HelmRelease',
        namespace: 'flux-system',
        name: 'storefront-staging',
      },
    };
    const fluxSource = (kind: string, name: string) => ({
      group: 'source.toolkit.fluxcd.io',
      kind,
      namespace: 'flux-system',
      name,
    });
    expect(
      readOnlyReason(
        helm,
        fluxSource('HelmChart', 'flux-system-storefront-staging'),
      ),
    ).toBeUndefined();
    expect(
      readOnlyReason(helm, fluxSource('HelmChart', 'flux-system-other')),
    ).toMatch(/shared namespace flux-system/);
    expect(
      readOnlyReason(helm, fluxSource('HelmRepository', 'acme-charts')),
    ).toMatch(/shared namespace flux-system/);
  });

  it('not a root named by the settings that deploys elsewhere, or nowhere it names', () => {
    const elsewhere = { ...root, spec: { targetNamespace: 'storefront' } };
    expect(reason(elsewhere)).toMatch(
      /deploys into storefront, not into the environment's namespace checkout/,
    );
    const nowhere = { ...root, spec: {}, status: {} };
    expect(reason(nowhere)).toMatch(/into no namespace it names/);
    // A HelmRelease without targetNamespace installs into its own namespace.
    expect(
      fluxAppliesInto({
        apiVersion: 'helm.toolkit.fluxcd.io/v2',
        kind: 'HelmRelease',
        metadata: { name: 'r', namespace: 'flux-system' },
      }),
    ).toBe('flux-system');
  });

  it('not an object of the owned namespace that is marked as another project’s or another applier’s', () => {
    expect(
      reason(
        deployment('checkout', 'web', {
          annotations: { 'app.gitlab.com/app': 'acme-shop-storefront' },
        }),
      ),
    ).toMatch(/deploy-board marker of another project/);
    expect(
      reason(
        deployment('checkout', 'web', {
          labels: { 'agent.gitlab.com/env-production-abc123-101-1': '' },
        }),
      ),
    ).toMatch(/GitLab-managed resources label of project 101/);
    expect(
      reason(
        deployment('checkout', 'web', {
          labels: {
            'kustomize.toolkit.fluxcd.io/name': 'rogue',
            'kustomize.toolkit.fluxcd.io/namespace': 'flux-system',
          },
        }),
      ),
    ).toMatch(
      /applied by Kustomization flux-system\/rogue, not by this environment's/,
    );
    expect(
      reason(
        deployment('checkout', 'web', {
          annotations: { 'app.gitlab.com/app': 'acme-shop-checkout-api' },
          labels: {
            'kustomize.toolkit.fluxcd.io/name': 'checkout-api',
            'kustomize.toolkit.fluxcd.io/namespace': 'flux-system',
          },
        }),
      ),
    ).toBeUndefined();
  });

  it('says why an environment owns no namespace', () => {
    const contested: EnvironmentActionScope = {
      ...scope,
      namespace: undefined,
      namespaceRefusal: {
        code: 'NAMESPACE_CONTESTED',
        message: 'Namespace checkout is claimed by two projects.',
      },
    };
    expect(
      readOnlyReason(contested, targetKey({ ...deploymentTarget() })),
    ).toBe('Namespace checkout is claimed by two projects.');
    expect(
      readOnlyReason(contested, {
        group: 'kustomize.toolkit.fluxcd.io',
        kind: 'Kustomization',
        namespace: 'flux-system',
        name: 'checkout-api',
      }),
    ).toBe('Namespace checkout is claimed by two projects.');
  });

  it('describes an object only to say why it is not acted on', () => {
    // The engine asks of every object it holds, and most may be acted on:
    // their answer must not cost a description each.
    let described = 0;
    const key = {
      group: 'apps',
      namespace: 'checkout',
      get kind() {
        described++;
        return 'Deployment';
      },
      get name() {
        described++;
        return 'web';
      },
    };
    const web = deployment('checkout', 'web', { labels: { app: 'web' } });
    expect(readOnlyReason(scope, key, web)).toBeUndefined();
    expect(described).toBe(0);
    expect(
      readOnlyReason({ ...scope, namespace: 'storefront' }, key, web),
    ).toMatch(/^Deployment checkout\/web lies outside the namespace/);
  });

  it('knows the platform’s namespaces by name or by a prefix ending in *', () => {
    const platform = (namespace: string, patterns: string[]) =>
      isPlatformNamespace({ platformNamespaces: patterns }, namespace);
    expect(platform('kube-system', scope.platformNamespaces)).toBe(true);
    expect(platform('kube-', scope.platformNamespaces)).toBe(true);
    expect(platform('kube', scope.platformNamespaces)).toBe(false);
    expect(platform('gitlab-agent', scope.platformNamespaces)).toBe(true);
    expect(platform('gitlab-agent-prod', scope.platformNamespaces)).toBe(true);
    expect(platform('gitlab-agentk', scope.platformNamespaces)).toBe(false);
    expect(platform('checkout', scope.platformNamespaces)).toBe(false);
    expect(platform('anything', ['*'])).toBe(true);
    expect(platform('', [''])).toBe(true);
    expect(platform('kube-system', [])).toBe(false);
  });

  it('marks the nodes of both graph builders alike', () => {
    const objects = [root, upstream, source, deployment('checkout', 'api')];
    const marks = (
      nodes: Array<{ kind: string; name: string; readOnly?: string }>,
    ) =>
      Object.fromEntries(
        nodes.map(n => [`${n.kind}/${n.name}`, n.readOnly !== undefined]),
      );
    const expected = {
      'Kustomization/checkout-api': false,
      'Kustomization/platform-infra': true,
      'GitRepository/checkout-api': true,
      'Deployment/api': false,
    };
    const built = buildResourceGraph(objects, { readOnly: readOnlyOf(scope) });
    expect(marks(built.nodes)).toMatchObject(expected);
    const live = new LiveResourceGraph(objects, {
      readOnly: readOnlyOf(scope),
    });
    expect(marks(live.graph().nodes)).toMatchObject(expected);
    expect(built.nodes.find(n => n.kind === 'GitRepository')?.readOnly).toBe(
      live.graph().nodes.find(n => n.kind === 'GitRepository')?.readOnly,
    );
  });
});

function deploymentTarget() {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    namespace: 'checkout',
    name: 'api',
  };
}
