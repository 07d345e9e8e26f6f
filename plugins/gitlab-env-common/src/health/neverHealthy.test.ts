import fc from 'fast-check';
import { KubernetesObject } from '../types';
import { computeHealth } from './computeHealth';
import { HEALTH_RULES } from './rules';
import { loadArgocdCases } from './__testUtils__/argocdCases';

// Issue 28's guarantee, as properties: whatever rule answers (every
// built-in rule, the wildcard ones, the generic rule), an object whose
// status says it is failing, progressing or paused — in any of the common
// shapes — is never Healthy.

/** apiVersion of a rule key: the versions the Go checks accept. */
function apiVersionOf(key: string): string {
  const [group] = key.split('/');
  if (key === 'autoscaling/HorizontalPodAutoscaler') return 'autoscaling/v2';
  return group ? `${group}/v1` : 'v1';
}

const KINDS: Array<[apiVersion: string, kind: string]> = [
  ...[...HEALTH_RULES.keys()].map(
    key =>
      [apiVersionOf(key), key.slice(key.indexOf('/') + 1)] as [string, string],
  ),
  // The wildcard rules and the generic one.
  ['ec2.aws.crossplane.io/v1beta1', 'Instance'],
  ['s3.aws.upbound.io/v1beta1', 'Bucket'],
  ['sqs.services.k8s.aws/v1alpha1', 'Queue'],
  ['storage.cnrm.cloud.google.com/v1beta1', 'StorageBucket'],
  ['operator.victoriametrics.com/v1beta1', 'VMCluster'],
  ['widgets.example.com/v1', 'Widget'],
];

/**
 * Objects each rule answers Healthy without a signal: Argo CD's Healthy
 * reference cases, and a healthy-looking object of every kind.
 */
const HEALTHY_CASES = loadArgocdCases()
  .filter(c => c.status === 'Healthy' && !c.statusDiffers)
  .map(c => c.object);
const baseObject = fc.oneof(
  fc.constantFrom(...HEALTHY_CASES),
  fc.constantFrom(...KINDS).map(
    ([apiVersion, kind]): KubernetesObject => ({
      apiVersion,
      kind,
      metadata: { name: 'web', namespace: 'shop', generation: 3 },
      spec: { replicas: 1 },
      status: {
        observedGeneration: 3,
        replicas: 1,
        readyReplicas: 1,
        updatedReplicas: 1,
        availableReplicas: 1,
        conditions: [
          { type: 'Ready', status: 'True', reason: 'Ready' },
          { type: 'Available', status: 'True', reason: 'Available' },
        ],
      },
    }),
  ),
);

const cased = (word: string) =>
  fc.constantFrom(word, word.toLowerCase(), word.toUpperCase());
const FAILING = ['Failed', 'Error', 'Degraded', 'CrashLoopBackOff', 'Invalid'];
const PROGRESSING = [
  'Pending',
  'Creating',
  'Provisioning',
  'Updating',
  'Deploying',
  'Initializing',
  'InProgress',
  'Reconciling',
  'Terminating',
];
const PAUSED = ['Paused', 'Suspended'];

type Signal = (obj: Record<string, any>) => void;
const named = (name: string, apply: Signal): [string, Signal] => [name, apply];

function setCondition(obj: Record<string, any>, condition: object) {
  const status = (obj.status ??= {});
  const type = (condition as { type: string }).type;
  const others = Array.isArray(status.conditions)
    ? status.conditions.filter((c: any) => c?.type !== type)
    : [];
  status.conditions = [...others, condition];
}

const reason = fc.constantFrom(undefined, 'Error', 'NotReady', 'Waiting');
const message = fc.constantFrom(undefined, 'it is not fine');

/** Failing, progressing and paused signals in every common shape. */
const signal: fc.Arbitrary<[string, Signal]> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('Ready', 'Available'),
      fc.constantFrom('False', 'Unknown'),
      reason,
      message,
    )
    .map(([type, status, r, m]) =>
      named(`${type}=${status}`, obj =>
        setCondition(obj, { type, status, reason: r, message: m }),
      ),
    ),
  fc
    .tuple(
      fc.constantFrom('Stalled', 'Degraded', 'Failed', 'Reconciling'),
      reason,
      message,
    )
    .map(([type, r, m]) =>
      named(`${type}=True`, obj =>
        setCondition(obj, { type, status: 'True', reason: r, message: m }),
      ),
    ),
  fc
    .tuple(
      fc.constantFrom('phase', 'state', 'status'),
      fc.constantFrom(...FAILING, ...PROGRESSING, ...PAUSED).chain(cased),
    )
    .map(([field, value]) =>
      named(`status.${field}=${value}`, obj => {
        obj.status = {
          ...(typeof obj.status === 'object' && obj.status ? obj.status : {}),
          [field]: value,
        };
      }),
    ),
  fc.integer({ min: 1, max: 50 }).map(behind =>
    named(`observedGeneration ${behind} behind`, obj => {
      obj.metadata = { ...obj.metadata, generation: 100 };
      obj.status = { ...(obj.status ?? {}), observedGeneration: 100 - behind };
    }),
  ),
  fc.constantFrom('suspend', 'paused').map(field =>
    named(`spec.${field}`, obj => {
      obj.spec = {
        ...(typeof obj.spec === 'object' && obj.spec ? obj.spec : {}),
        [field]: true,
      };
    }),
  ),
);

describe('never Healthy by mistake', () => {
  it('no rule answers Healthy for an object with a failing, progressing or paused signal', () => {
    fc.assert(
      fc.property(baseObject, signal, (base, [name, apply]) => {
        const obj = structuredClone(base) as Record<string, any>;
        apply(obj);
        const result = computeHealth(obj as KubernetesObject);
        expect({
          object: `${obj.apiVersion} ${obj.kind} with ${name}`,
          healthy: result?.status === 'Healthy',
        }).toEqual({
          object: `${obj.apiVersion} ${obj.kind} with ${name}`,
          healthy: false,
        });
      }),
      { numRuns: 4000 },
    );
  });

  it('the signals are what changes the answer: the same objects without them are Healthy', () => {
    // Guards the test above against passing vacuously.
    const healthy = HEALTHY_CASES.filter(
      obj => computeHealth(obj)?.status === 'Healthy',
    );
    expect(healthy.length).toBe(HEALTHY_CASES.length);
  });
});
