import {
  DesiredStateComparison,
  buildResourceGraph,
  EnvironmentResourcesResponse,
  GitlabEnvironment,
  KubernetesObject,
  summarizeGraphHealth,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { backendDrift } from './fixtures';

const NOW = new Date().toISOString();
const REVISION = 'v3.8.2@sha1:5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f80';
const flux = {
  'kustomize.toolkit.fluxcd.io/name': 'shop',
  'kustomize.toolkit.fluxcd.io/namespace': 'flux-system',
};

/**
 * A Flux-managed environment as the backend answers it, graph built by the
 * engine: a Kustomization with its GitRepository and history, an inventory
 * with a Namespace, a ClusterRole, a Deployment deleted by hand (Missing)
 * and a ConfigMap someone edited with kubectl (drift), plus a ConfigMap no
 * inventory names (unmanaged).
 */
export function fluxResources(
  env: GitlabEnvironment,
): EnvironmentResourcesResponse {
  const objects: KubernetesObject[] = [
    {
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name: 'shop', namespace: 'flux-system', uid: 'ks' },
      spec: { sourceRef: { kind: 'GitRepository', name: 'shop' } },
      status: {
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'ReconciliationSucceeded',
            message: `Applied revision: ${REVISION}`,
          },
        ],
        lastAppliedRevision: REVISION,
        inventory: {
          entries: [
            { id: '_shop__Namespace', v: 'v1' },
            {
              id: '_shop-reader_rbac.authorization.k8s.io_ClusterRole',
              v: 'v1',
            },
            { id: 'shop_config__ConfigMap', v: 'v1' },
            { id: 'shop_worker_apps_Deployment', v: 'v1' },
          ],
        },
        history: [
          {
            digest: 'sha256:1',
            lastReconciled: NOW,
            lastReconciledDuration: '2.8s',
            lastReconciledStatus: 'ReconciliationSucceeded',
            totalReconciliations: 12,
            metadata: { revision: REVISION },
          },
          {
            digest: 'sha256:0',
            lastReconciled: NOW,
            lastReconciledDuration: '49.8s',
            lastReconciledStatus: 'HealthCheckFailed',
            totalReconciliations: 3,
            metadata: {
              revision: 'v3.8.1@sha1:67e2c98a60dc92283531412a9e604dd4bae005a9',
            },
          },
        ],
      },
    },
    {
      apiVersion: 'source.toolkit.fluxcd.io/v1',
      kind: 'GitRepository',
      metadata: { name: 'shop', namespace: 'flux-system', uid: 'repo' },
      status: {
        conditions: [{ type: 'Ready', status: 'True', reason: 'Succeeded' }],
        artifact: { revision: REVISION },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'shop', uid: 'ns', labels: flux },
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'shop-reader', uid: 'cr', labels: flux },
    },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'config',
        namespace: 'shop',
        uid: 'cm',
        labels: flux,
        managedFields: [
          {
            manager: 'kubectl-edit',
            operation: 'Update',
            time: NOW,
            fieldsV1: { 'f:data': { 'f:CURRENCY': {} } },
          },
        ],
      },
      data: { CURRENCY: 'EUR' },
    },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'debug', namespace: 'shop', uid: 'debug' },
      data: {},
    },
  ];
  const graph = buildResourceGraph(objects);
  return {
    entityRef: 'component:default/storefront',
    environment: env,
    scope: { namespace: 'shop' },
    resources: objects,
    graph,
    health: summarizeGraphHealth(graph),
    errors: [],
    fetchedAt: NOW,
    ...backendDrift(objects, graph),
  };
}

/** What the backend's `…/desired` route answers for these objects. */
export function fluxComparison(): DesiredStateComparison {
  return {
    source: {
      project: 'acme/shop',
      ref: '5d6e7f8091a2b3c4',
      path: 'deploy/production',
    },
    notRendered: ['configMapGenerator (needs kustomize build)'],
    objects: [
      {
        id: '/ConfigMap/shop/config',
        file: 'deploy/production/config.yaml',
        state: 'differs',
        changes: [
          {
            path: 'data.CURRENCY',
            change: 'changed',
            desired: 'USD',
            live: 'EUR',
          },
        ],
      },
    ],
  };
}
