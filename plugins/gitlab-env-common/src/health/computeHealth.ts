import {
  HEALTH_STATUSES,
  HealthAssessment,
  HealthOrigin,
  KubernetesObject,
} from '../types';
import { HealthRuleSet } from './adopterRules';
import { groupOf, isRecord } from '../k8s/objects';
import { contradictingSignal } from './contradictions';
import { genericHealth } from './custom/generic';
import { HealthRule, healthRuleOf } from './rules';

const VALID = new Set<string>(HEALTH_STATUSES);

/**
 * Kubernetes' own API groups (kube-apiserver and aggregated metrics):
 * their kinds without a rule carry no health (ConfigMap, Secret, Role, ...).
 * Listed, not matched by suffix: CRDs live under `.k8s.io` too
 * (`sparkoperator.k8s.io`, `snapshot.storage.k8s.io`).
 */
const BUILTIN_GROUPS = new Set([
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'apiregistration.k8s.io',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'certificates.k8s.io',
  'coordination.k8s.io',
  'discovery.k8s.io',
  'events.k8s.io',
  'flowcontrol.apiserver.k8s.io',
  'internal.apiserver.k8s.io',
  'metrics.k8s.io',
  'networking.k8s.io',
  'node.k8s.io',
  'rbac.authorization.k8s.io',
  'resource.k8s.io',
  'scheduling.k8s.io',
  'storage.k8s.io',
  'storagemigration.k8s.io',
]);

function isBuiltinGroup(group: string): boolean {
  return !group.includes('.') || BUILTIN_GROUPS.has(group);
}

/** The group, built-in rule and whether the group is Kubernetes' own, of an apiVersion and kind. */
class KnownKind {
  constructor(
    readonly apiVersion: unknown,
    readonly group: string,
    readonly rule: HealthRule | undefined,
    readonly builtinGroup: boolean,
  ) {}
}

/**
 * What is known of each kind, for the last apiVersion it came with:
 * objects of a dozen kinds come interleaved (a Deployment, its ReplicaSets,
 * their Pods, a Service...), and otherwise each would slice its group from
 * the apiVersion and look its rule up (wildcard suffixes included) anew.
 */
const knownKinds = new Map<string, KnownKind>();
/** Kinds come from clusters: past this many, the ones not yet kept are worked out each time. */
const MAX_KNOWN_KINDS = 1024;

function knownKindOf(object: KubernetesObject & { kind: string }): KnownKind {
  const known = knownKinds.get(object.kind);
  if (known !== undefined && known.apiVersion === object.apiVersion)
    return known;
  const group = groupOf(object);
  const made = new KnownKind(
    object.apiVersion,
    group,
    healthRuleOf(group, object.kind),
    isBuiltinGroup(group),
  );
  if (known !== undefined || knownKinds.size < MAX_KNOWN_KINDS)
    knownKinds.set(object.kind, made);
  return made;
}

/** @public */
export interface ComputeHealthOptions {
  /** Adopters' rules, tried before the built-in ones. */
  rules?: HealthRuleSet;
}

function marked(
  result: HealthAssessment | undefined,
  origin: HealthOrigin | undefined,
): HealthAssessment | undefined {
  return result && origin ? { ...result, origin } : result;
}

/**
 * An object's health as ArgoCD assesses it: pending deletion first, then an
 * adopter's rule for its group and kind, then the built-in one, then
 * (custom resources only) the generic status conventions, marked with
 * `origin: 'generic'`. Undefined for kinds that carry no health. Never
 * throws, whatever JSON it is given or an adopter's rule does.
 *
 * @public
 */
export function computeHealth(
  object: KubernetesObject,
  options?: ComputeHealthOptions,
): HealthAssessment | undefined {
  if (!isRecord(object) || typeof object.kind !== 'string') return undefined;
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  // Whose rule is answering, also when it throws.
  let origin: HealthOrigin | undefined;
  try {
    if (metadata.deletionTimestamp) {
      const finalizers = Array.isArray(metadata.finalizers)
        ? metadata.finalizers
        : [];
      if (!finalizers.includes('argocd.argoproj.io/hook-finalizer')) {
        return { status: 'Progressing', message: 'Pending deletion' };
      }
    }
    const known = knownKindOf(object as KubernetesObject & { kind: string });
    const { group, rule } = known;
    const builtinGroup = known.builtinGroup;
    let result: HealthAssessment | undefined;
    const adopted = options?.rules?.ruleOf(group, object.kind);
    if (adopted) {
      origin = 'adopter';
      result = adopted(object);
    }
    if (!result) {
      origin = undefined;
      if (rule) result = rule(object);
      else if (!builtinGroup) {
        origin = 'generic';
        result = genericHealth(object);
      }
    }
    if (!result) return undefined;
    if (result.status === 'Healthy' && origin !== 'adopter') {
      // Never Healthy by mistake: a built-in or generic Healthy gives way
      // to a standard signal that says otherwise (see contradictions.ts).
      const signal = contradictingSignal(object);
      if (signal) result = signal;
    }
    if (!VALID.has(result.status))
      return marked(
        {
          status: 'Unknown',
          message:
            origin === 'adopter'
              ? `The portal's health rule for ${group}/${
                  object.kind
                } returned an invalid status: ${String(result.status).slice(
                  0,
                  40,
                )}`
              : 'Lua returned an invalid health status',
        },
        origin,
      );
    if (result.message !== undefined && typeof result.message !== 'string') {
      return marked({ status: result.status }, origin);
    }
    if (!origin) return result;
    // Rebuilt so that only the fields of an assessment leave a rule.
    return result.message === undefined
      ? { status: result.status, origin }
      : { status: result.status, message: result.message, origin };
  } catch (error) {
    // ArgoCD turns a failing check into Unknown with the error's text.
    return marked(
      {
        status: 'Unknown',
        message: error instanceof Error ? error.message : String(error),
      },
      origin,
    );
  }
}
