import { groupOfApiVersion } from '../k8s/resourceId';
import { ActionTarget, EnvironmentAction } from '../types';
import { shellWord } from './shellWord';

/** @public */
export interface KubectlCommandOptions {
  /** The kubeconfig context to name with `--context`, if any. */
  context?: string;
  /** For `workload.scale`. */
  replicas?: number;
  /** For `workload.rollback`: the revision; 0 or absent is the previous one. */
  toRevision?: number;
  /**
   * For `flux.reconcile`: reconcile this source first (fluxSourceOf), as
   * `flux reconcile --with-source` does.
   */
  source?: ActionTarget;
  /**
   * For `flux.reconcile`: the value of `reconcile.fluxcd.io/requestedAt`.
   * Omitted, the command asks the shell for the current time, so it can be
   * run again and again (Flux reconciles whenever the value changes).
   */
  requestedAt?: string;
}

const REQUESTED_AT = 'reconcile.fluxcd.io/requestedAt';
const SHELL_NOW = '"$(date -u +%Y-%m-%dT%H:%M:%SZ)"';
/** Kinds kubectl resolves unambiguously by their short name. */
const SHORT_GROUPS = new Set(['', 'apps']);

/** `deployment/web`, `kustomization.kustomize.toolkit.fluxcd.io/app`. */
function resourceArg(target: ActionTarget): string {
  const group = groupOfApiVersion(target.apiVersion);
  const kind = target.kind.toLowerCase();
  return SHORT_GROUPS.has(group)
    ? `${kind}/${target.name}`
    : `${kind}.${group}/${target.name}`;
}

function scopeFlags(target: ActionTarget, options: KubectlCommandOptions) {
  const flags = ['-n', shellWord(target.namespace)];
  if (options.context) flags.push(`--context=${shellWord(options.context)}`);
  return flags;
}

function annotateReconcile(
  target: ActionTarget,
  options: KubectlCommandOptions,
): string {
  const value =
    options.requestedAt !== undefined
      ? shellWord(options.requestedAt)
      : SHELL_NOW;
  return [
    'kubectl annotate --overwrite',
    resourceArg(target),
    ...scopeFlags(target, options),
    `${REQUESTED_AT}=${value}`,
  ].join(' ');
}

function suspendPatch(suspend: boolean): string {
  return `'${JSON.stringify({ spec: { suspend } })}'`;
}

/**
 * The kubectl command that does what the backend does for an action, for
 * the page to show and a person to copy: run by hand (with a kubeconfig for
 * the agent, e.g. `glab cluster agent update-kubeconfig`), it changes the
 * cluster the same way. Several commands are joined with ` && `.
 *
 * @public
 */
export function kubectlCommandFor(
  action: EnvironmentAction,
  target: ActionTarget,
  options: KubectlCommandOptions = {},
): string {
  const resource = resourceArg(target);
  const scope = scopeFlags(target, options).join(' ');
  switch (action) {
    case 'pod.delete':
      return `kubectl delete pod ${target.name} ${scope}`;
    case 'workload.restart':
      return `kubectl rollout restart ${resource} ${scope}`;
    case 'workload.scale':
      if (
        options.replicas === undefined ||
        !Number.isInteger(options.replicas) ||
        options.replicas < 0
      )
        throw new RangeError(
          'workload.scale needs whole, non-negative replicas',
        );
      return `kubectl scale ${resource} --replicas=${options.replicas} ${scope}`;
    case 'flux.reconcile': {
      const commands = options.source
        ? [annotateReconcile(options.source, options)]
        : [];
      commands.push(annotateReconcile(target, options));
      return commands.join(' && ');
    }
    case 'workload.rollback': {
      const revision = options.toRevision ?? 0;
      if (!Number.isSafeInteger(revision) || revision < 0)
        throw new RangeError(
          'workload.rollback needs a whole, non-negative revision',
        );
      return `kubectl rollout undo ${resource}${
        revision > 0 ? ` --to-revision=${revision}` : ''
      } ${scope}`;
    }
    case 'flux.suspend':
    case 'flux.resume':
      return `kubectl patch ${resource} ${scope} --type=merge -p ${suspendPatch(
        action === 'flux.suspend',
      )}`;
    default:
      throw new RangeError(`Unknown action ${String(action)}`);
  }
}

/**
 * The kubectl command that shows an object as the cluster holds it now:
 * what to run when a write's outcome is unknown.
 *
 * @public
 */
export function kubectlGetCommand(
  target: ActionTarget,
  options: Pick<KubectlCommandOptions, 'context'> = {},
): string {
  return `kubectl get ${resourceArg(target)} ${scopeFlags(target, options).join(
    ' ',
  )} -o yaml`;
}

/**
 * `kubectl rollout history` of a Deployment, StatefulSet or DaemonSet
 * (with `--revision=N`, that revision's pod template).
 *
 * @public
 */
export function kubectlRolloutHistoryCommand(
  target: ActionTarget,
  options: Pick<KubectlCommandOptions, 'context'> & { revision?: number } = {},
): string {
  return `kubectl rollout history ${resourceArg(target)}${
    options.revision ? ` --revision=${options.revision}` : ''
  } ${scopeFlags(target, options).join(' ')}`;
}
