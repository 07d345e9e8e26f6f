import { DEMO_TOKEN } from './generate';
import { useSimulator } from '../testing/harness';

/**
 * The default scenario's GitOps shapes, read through KAS and the GitLab
 * API as the backend reads them: a Flux Kustomization whose inventory names
 * objects in other namespaces and at cluster scope
 * (kustomize-controller docs/spec/v1/kustomizations.md, Inventory), its
 * GitRepository's artifact revision, a Flux Operator ResourceSet,
 * GitLabDeployment objects (examples/gitlab-deployment/crd.yaml), and the
 * manifests Flux applies, readable through GitLab's repository files API.
 */
describe('default scenario: GitOps', () => {
  const sim = useSimulator();
  const kube = async (path: string, agent = 1) => {
    const response = await fetch(`${sim().kasProxyUrl}${path}`, {
      headers: { Authorization: `Bearer pat:${agent}:${DEMO_TOKEN}` },
    });
    return { status: response.status, body: await response.json() };
  };

  it('serves every entry of the checkout-api inventory, cluster-scoped and cross-namespace included, but the one deleted by hand', async () => {
    const { body: ks } = await kube(
      '/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/checkout-api',
    );
    const paths: Record<string, string> = {
      '': '/api/v1',
      apps: '/apis/apps/v1',
      autoscaling: '/apis/autoscaling/v2',
      'rbac.authorization.k8s.io': '/apis/rbac.authorization.k8s.io/v1',
    };
    const plural = (kind: string) =>
      kind === 'HorizontalPodAutoscaler'
        ? 'horizontalpodautoscalers'
        : `${kind.toLowerCase()}s`;
    const found: Record<string, number> = {};
    for (const { id } of ks.status.inventory.entries) {
      const [namespace, name, group, kind] = id.split('_');
      const scope = namespace ? `/namespaces/${namespace}` : '';
      const { status } = await kube(
        `${paths[group]}${scope}/${plural(kind)}/${name}`,
      );
      found[id] = status;
    }
    const missing = Object.keys(found).filter(id => found[id] !== 200);
    expect(missing).toEqual(['checkout_checkout-worker_apps_Deployment']);
    expect(found._checkout__Namespace).toBe(200);
    expect(
      found['_checkout-api-reader_rbac.authorization.k8s.io_ClusterRole'],
    ).toBe(200);
    expect(found['flux-system_checkout-api-alerts__ConfigMap']).toBe(200);
  });

  it('has the source revision the Kustomization applied, and a history newest first', async () => {
    const { body: ks } = await kube(
      '/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/checkout-api',
    );
    const { body: repo } = await kube(
      '/apis/source.toolkit.fluxcd.io/v1/namespaces/flux-system/gitrepositories/checkout-api',
    );
    expect(repo.status.artifact.revision).toBe(ks.status.lastAppliedRevision);
    expect(ks.status.history.map((h: any) => h.lastReconciledStatus)).toEqual([
      'ReconciliationSucceeded',
      'HealthCheckFailed',
    ]);
  });

  it('records the hand edit of checkout-config in managedFields', async () => {
    const { body } = await kube(
      '/api/v1/namespaces/checkout/configmaps/checkout-config',
    );
    expect(body.data.CURRENCY).toBe('EUR');
    expect(body.metadata.managedFields.map((m: any) => m.manager)).toEqual([
      'kustomize-controller',
      'kubectl-edit',
    ]);
  });

  it('serves the ResourceSet and GitLabDeployments (cluster-scoped, gitlab.com/v1alpha1)', async () => {
    const { body: sets } = await kube(
      '/apis/fluxcd.controlplane.io/v1/namespaces/flux-system/resourcesets',
    );
    expect(sets.items.map((s: any) => s.metadata.name)).toEqual([
      'checkout-tenants',
    ]);
    const nonprod = 3;
    const { body: resources } = await kube(
      '/apis/gitlab.com/v1alpha1',
      nonprod,
    );
    expect(resources.resources[0]).toMatchObject({
      name: 'gitlabdeployments',
      namespaced: false,
      kind: 'GitLabDeployment',
    });
    const { body: mappings } = await kube(
      '/apis/gitlab.com/v1alpha1/gitlabdeployments',
      nonprod,
    );
    expect(
      mappings.items.map((m: any) => [m.metadata.name, m.spec.namespace]),
    ).toEqual([
      ['search-indexer-staging', 'search-staging'],
      ['shop-reviews', 'checkout-api-review'],
    ]);
    // A cluster-scoped kind has no namespaced collection (the API server answers 404).
    const namespaced = await kube(
      '/apis/gitlab.com/v1alpha1/namespaces/search-staging/gitlabdeployments',
      nonprod,
    );
    expect(namespaced.status).toBe(404);
  });

  it('serves the manifests Flux applies through the repository files API', async () => {
    const response = await fetch(
      `${sim().apiUrl}/projects/${encodeURIComponent(
        'acme/shop/checkout-api',
      )}/repository/files/${encodeURIComponent(
        'deploy/production/config.yaml',
      )}/raw?ref=main`,
      { headers: { 'PRIVATE-TOKEN': DEMO_TOKEN } },
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('CURRENCY: USD');
  });

  it('serves them at the commit a deployment records, and 404 Commit Not Found at any other', async () => {
    const at = (ref: string) =>
      fetch(
        `${sim().apiUrl}/projects/${encodeURIComponent(
          'acme/shop/checkout-api',
        )}/repository/files/${encodeURIComponent(
          'deploy/production/config.yaml',
        )}?ref=${ref}`,
        { headers: { 'PRIVATE-TOKEN': DEMO_TOKEN } },
      );
    // The commit of production's deployment (the Kustomization's lastAppliedRevision), full and abbreviated.
    expect((await at('5d6e7f80')).status).toBe(200);
    expect((await at('5d6e7f8000000000000000000000000000000000')).status).toBe(
      200,
    );
    const other = await at('0123456789abcdef0123456789abcdef01234567');
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ message: '404 Commit Not Found' });
  });
});
