import fc from 'fast-check';
import { buildResourceGraph } from './graph';
import {
  computeHealth,
  createHealthRuleSet,
  parseDeclarativeHealthRules,
} from './health';
import { HEALTH_STATUSES, KubernetesObject, ResourceGraph } from './types';
import { generateEnvironment } from './graph/testing/generateEnvironment';
import { loadArgocdCases } from './health/__testUtils__/argocdCases';
import { HEALTH_RULES, HealthRule } from './health/rules';
import { awsAckHealth } from './health/custom/awsAck';
import { crossplaneHealth, upboundHealth } from './health/custom/crossplane';
import { gcpConfigConnectorHealth } from './health/custom/gcpConfigConnector';
import { genericHealth } from './health/custom/generic';
import { victoriaMetricsHealth } from './health/custom/operator.victoriametrics.com/victoriaMetrics';

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
  'ApplicationSet',
  'EventBus',
  'BackendTLSPolicy',
  'ClientTrafficPolicy',
  'Policy',
  'ClusterPolicy',
  'Receiver',
  'Provider',
  'Configuration',
  'ConfigurationRevision',
  'Composition',
  'ProviderConfig',
  'Bucket',
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
  'gateway.envoyproxy.io/v1alpha1',
  'kyverno.io/v1',
  'notification.toolkit.fluxcd.io/v1',
  'serving.knative.dev/v1',
  'pkg.crossplane.io/v1',
  'apiextensions.crossplane.io/v1',
  's3.aws.upbound.io/v1beta1',
  'postgresql.cnpg.io/v1',
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
          ancestors: fc.anything(),
          users: fc.anything(),
          observedGeneration: fc.anything(),
          state: fc.anything(),
        },
        { requiredKeys: [] },
      ),
      fc.anything(),
    ),
  },
  { requiredKeys: [] },
);

const VALID = new Set<string>(HEALTH_STATUSES);

/** Every broken graph invariant, described; empty when the graph is sound. */
function invariantViolations(graph: ResourceGraph): string[] {
  const violations: string[] = [];
  const byId = new Map(graph.nodes.map(node => [node.id, node]));
  if (byId.size !== graph.nodes.length) violations.push('duplicate node ids');
  for (const edge of graph.edges) {
    if (!byId.has(edge.source) || !byId.has(edge.target)) {
      violations.push(`dangling edge ${edge.source} -> ${edge.target}`);
    }
  }
  for (const root of graph.roots) {
    if (byId.get(root)?.parentId !== undefined) {
      violations.push(`root ${root} has a parent`);
    }
  }
  for (const node of graph.nodes) {
    if (node.health && !VALID.has(node.health.status)) {
      violations.push(`${node.id} has status ${node.health.status}`);
    }
    if (node.subtreeHealth && !VALID.has(node.subtreeHealth)) {
      violations.push(`${node.id} has subtree status ${node.subtreeHealth}`);
    }
    const seen = new Set<string>();
    for (let id = node.id as string | undefined; id; ) {
      if (seen.has(id)) {
        violations.push(`parent chain of ${node.id} loops at ${id}`);
        break;
      }
      seen.add(id);
      id = byId.get(id)?.parentId;
    }
  }
  return violations;
}

/**
 * One object of a realistic environment, or of ArgoCD's reference cases (the
 * kinds of every rule), with a random field replaced by garbage.
 */
const REALISTIC = [
  ...generateEnvironment(200),
  ...loadArgocdCases().map(c => c.object),
];
const mutatedRealistic = fc
  .tuple(
    fc.constantFrom(...REALISTIC),
    fc.constantFrom(
      'apiVersion',
      'kind',
      'metadata',
      'metadata.name',
      'metadata.namespace',
      'metadata.uid',
      'metadata.labels',
      'metadata.annotations',
      'metadata.ownerReferences',
      'spec',
      'spec.selector',
      'spec.template',
      'spec.rules',
      'spec.scaleTargetRef',
      'spec.volumeClaimTemplates',
      'status',
      'status.inventory',
      'status.conditions',
      'status.conditions.0',
      'status.conditions.0.status',
      'status.conditions.0.message',
      'status.ancestors',
      'status.ancestors.0.conditions',
      'status.ancestors.0.ancestorRef',
      'status.phase',
      'status.users',
    ),
    fc.anything(),
  )
  .map(([object, path, garbage]) => {
    const copy = structuredClone(object) as Record<string, any>;
    const keys = path.split('.');
    let target: any = copy;
    for (const key of keys.slice(0, -1)) {
      if (typeof target[key] !== 'object' || target[key] === null) {
        target[key] = {};
      }
      target = target[key];
    }
    target[keys[keys.length - 1]] = garbage;
    return copy;
  });

const anyObject = fc.oneof(looseObject, mutatedRealistic, fc.anything());

describe('the engine on random input', () => {
  it('computeHealth never throws and answers a valid status or undefined', () => {
    fc.assert(
      fc.property(anyObject, object => {
        const result = computeHealth(object as KubernetesObject);
        expect(result === undefined || VALID.has(result.status)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('no rule throws on its own, whatever the object (a throw would only read as Unknown)', () => {
    const declarative = parseDeclarativeHealthRules([
      {
        group: 'postgresql.cnpg.io',
        kind: 'Cluster',
        degraded: [{ condition: 'Ready', status: 'False', reasons: ['X'] }],
        suspended: [
          { field: 'spec.hibernation\\.x.y', values: ['on', true, 1] },
        ],
        healthy: [{ condition: 'Ready' }],
        message: ['status.message', 'status.conditions'],
      },
    ])[0].rule;
    const rules: Array<[string, HealthRule]> = [
      ...HEALTH_RULES,
      ['*.crossplane.io', crossplaneHealth],
      ['*.upbound.io', upboundHealth],
      ['*.services.k8s.aws', awsAckHealth],
      ['*.cnrm.cloud.google.com', gcpConfigConnectorHealth],
      ['operator.victoriametrics.com/*', victoriaMetricsHealth],
      ['generic', genericHealth],
      ['declarative', declarative],
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...rules),
        anyObject.filter(o => typeof o === 'object' && o !== null),
        ([key, rule], object) => {
          let result;
          try {
            result = rule(object as KubernetesObject);
          } catch (error) {
            throw new Error(`${key} threw ${error}`);
          }
          // Validity is the pipeline's job (a Rollout passes its phase on,
          // as ArgoCD's script does); a rule only has to answer.
          expect(
            result === undefined || typeof result.status === 'string',
          ).toBe(true);
        },
      ),
      { numRuns: 6000 },
    );
  });

  it('parseDeclarativeHealthRules either compiles or throws one Error naming the key, on any config', () => {
    const match = fc.oneof(
      fc.record(
        {
          condition: fc.oneof(
            fc.constantFrom('Ready', 'Synced'),
            fc.anything(),
          ),
          status: fc.oneof(
            fc.constantFrom('True', 'False', 'Unknown'),
            fc.anything(),
          ),
          reasons: fc.oneof(fc.array(fc.string()), fc.anything()),
        },
        { requiredKeys: [] },
      ),
      fc.record(
        {
          field: fc.oneof(
            fc.constantFrom('status.phase', 'a\\.b.c', '.'),
            fc.anything(),
          ),
          values: fc.oneof(
            fc.array(fc.oneof(fc.string(), fc.integer(), fc.boolean())),
            fc.anything(),
          ),
        },
        { requiredKeys: [] },
      ),
      fc.anything(),
    );
    const rule = fc.record(
      {
        group: fc.oneof(fc.constantFrom('', 'x.io'), fc.anything()),
        kind: fc.oneof(fc.constantFrom('Thing', 'Other'), fc.anything()),
        healthy: fc.oneof(fc.array(match, { maxLength: 3 }), fc.anything()),
        degraded: fc.oneof(fc.array(match, { maxLength: 3 }), fc.anything()),
        message: fc.oneof(fc.array(fc.string()), fc.anything()),
        otherwise: fc.oneof(
          fc.constantFrom('Healthy', 'Unknown'),
          fc.anything(),
        ),
      },
      { requiredKeys: [] },
    );
    const validRule = fc.record({
      group: fc.constantFrom('', 'x.io'),
      kind: fc.constantFrom('Thing', 'Other'),
      healthy: fc.array(
        fc.record({
          condition: fc.constantFrom('Ready', 'Synced'),
          status: fc.constantFrom('True', 'False', 'Unknown'),
        }),
        { minLength: 1, maxLength: 2 },
      ),
      suspended: fc.array(
        fc.record({
          field: fc.constantFrom('spec.suspend', 'metadata.annotations.a\\.b'),
          values: fc.array(fc.oneof(fc.string(), fc.boolean()), {
            minLength: 1,
          }),
        }),
      ),
      message: fc.array(fc.constantFrom('status.message', 'status.phase')),
    });
    let compiledRules = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(validRule, { maxLength: 2 }),
          fc.array(fc.oneof(validRule, rule), { maxLength: 3 }),
          fc.anything(),
        ),
        anyObject,
        (config, object) => {
          let registrations: ReturnType<typeof parseDeclarativeHealthRules> =
            [];
          let failure: unknown;
          try {
            registrations = parseDeclarativeHealthRules(config);
          } catch (error) {
            failure = error;
          }
          expect(
            failure === undefined ||
              (failure instanceof Error &&
                failure.message.includes('gitlabEnv.health.rules')),
          ).toBe(true);
          for (const { rule: compiled } of registrations) {
            compiledRules += 1;
            const result = compiled(object as KubernetesObject);
            expect(result !== undefined && VALID.has(result.status)).toBe(true);
          }
        },
      ),
      { numRuns: 2000 },
    );
    // Valid rules were generated too, not only rejected ones.
    expect(compiledRules).toBeGreaterThan(0);
  });

  it('computeHealth with adopter rules that throw or return garbage stays valid', () => {
    const rules = createHealthRuleSet([
      {
        group: 'apps',
        kind: 'Deployment',
        rule: () => {
          throw new Error('adopter bug');
        },
      },
      { group: '', kind: 'Pod', rule: () => ({ status: 'Fine' } as any) },
    ]);
    fc.assert(
      fc.property(anyObject, object => {
        const result = computeHealth(object as KubernetesObject, { rules });
        expect(result === undefined || VALID.has(result.status)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('buildResourceGraph never throws and keeps its invariants', () => {
    fc.assert(
      fc.property(fc.array(anyObject, { maxLength: 25 }), objects => {
        const graph = buildResourceGraph(objects as KubernetesObject[]);
        expect(invariantViolations(graph)).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps its invariants on a realistic environment with some objects mutated', () => {
    fc.assert(
      fc.property(fc.array(mutatedRealistic, { maxLength: 40 }), mutated => {
        const graph = buildResourceGraph([
          ...REALISTIC,
          ...mutated,
        ] as KubernetesObject[]);
        expect(invariantViolations(graph)).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });
});
