import fc from 'fast-check';
import { buildResourceGraph } from './graph';
import { computeHealth } from './health';
import { HEALTH_STATUSES, KubernetesObject } from './types';

const KINDS = [
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'ReplicaSet',
  'Pod',
  'Service',
  'Ingress',
  'Job',
  'CronJob',
  'HorizontalPodAutoscaler',
  'Kustomization',
  'HelmRelease',
  'GitRepository',
  'Rollout',
  'Certificate',
  'ScaledObject',
  'HTTPRoute',
  'Gateway',
  'EndpointSlice',
  'PersistentVolumeClaim',
  'CustomResourceDefinition',
  'Widget',
];
const API_VERSIONS = [
  'v1',
  'apps/v1',
  'batch/v1',
  'networking.k8s.io/v1',
  'autoscaling/v1',
  'autoscaling/v2',
  'kustomize.toolkit.fluxcd.io/v1',
  'helm.toolkit.fluxcd.io/v2',
  'source.toolkit.fluxcd.io/v1',
  'argoproj.io/v1alpha1',
  'cert-manager.io/v1',
  'keda.sh/v1alpha1',
  'gateway.networking.k8s.io/v1',
  'discovery.k8s.io/v1',
  'apiextensions.k8s.io/v1',
  'example.com/v1',
];

/** Objects shaped like Kubernetes objects whose every field may be garbage. */
const looseObject = fc.record(
  {
    apiVersion: fc.oneof(fc.constantFrom(...API_VERSIONS), fc.anything()),
    kind: fc.oneof(fc.constantFrom(...KINDS), fc.anything()),
    metadata: fc.oneof(
      fc.record(
        {
          name: fc.oneof(fc.constantFrom('a', 'b', 'web'), fc.anything()),
          namespace: fc.oneof(fc.constant('shop'), fc.anything()),
          uid: fc.oneof(fc.constantFrom('u1', 'u2'), fc.anything()),
          generation: fc.anything(),
          deletionTimestamp: fc.anything(),
          labels: fc.anything(),
          annotations: fc.anything(),
          ownerReferences: fc.oneof(
            fc.array(
              fc.record(
                {
                  kind: fc.constantFrom('Deployment', 'ReplicaSet', 'Pod'),
                  name: fc.constantFrom('a', 'b', 'web'),
                  uid: fc.constantFrom('u1', 'u2'),
                },
                { requiredKeys: [] },
              ),
            ),
            fc.anything(),
          ),
        },
        { requiredKeys: [] },
      ),
      fc.anything(),
    ),
    spec: fc.anything(),
    status: fc.oneof(
      fc.record(
        {
          conditions: fc.anything(),
          phase: fc.anything(),
          inventory: fc.anything(),
          replicas: fc.anything(),
        },
        { requiredKeys: [] },
      ),
      fc.anything(),
    ),
  },
  { requiredKeys: [] },
);

const VALID = new Set<string>(HEALTH_STATUSES);

describe('the engine on random input', () => {
  it('computeHealth never throws and answers a valid status or undefined', () => {
    fc.assert(
      fc.property(fc.oneof(looseObject, fc.anything()), object => {
        const result = computeHealth(object as KubernetesObject);
        return result === undefined || VALID.has(result.status);
      }),
      { numRuns: 3000 },
    );
  });

  it('buildResourceGraph never throws and keeps its invariants', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(looseObject, fc.anything()), { maxLength: 25 }),
        objects => {
          const graph = buildResourceGraph(objects as KubernetesObject[]);
          const ids = new Set(graph.nodes.map(n => n.id));
          expect(ids.size).toBe(graph.nodes.length);
          for (const edge of graph.edges) {
            expect(ids.has(edge.source) && ids.has(edge.target)).toBe(true);
          }
          const byId = new Map(graph.nodes.map(n => [n.id, n]));
          for (const root of graph.roots)
            expect(byId.get(root)?.parentId).toBeUndefined();
          for (const node of graph.nodes) {
            expect(!node.health || VALID.has(node.health.status)).toBe(true);
            const seen = new Set<string>();
            for (
              let id: string | undefined = node.id;
              id;
              id = byId.get(id)?.parentId
            ) {
              expect(seen.has(id)).toBe(false);
              seen.add(id);
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
