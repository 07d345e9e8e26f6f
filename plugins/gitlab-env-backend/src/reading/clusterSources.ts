import {
  GitlabAgentRef,
  KubernetesObject,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { asGitlabEnvError, GitlabEnvFailure } from '../errors';
import type { ListableKind } from './discovery';
import { KasClient } from '../transport/kasClient';
import {
  apiVersionOf,
  inspectOrWarn,
  kasObjectSource,
  ObjectRef,
  ObjectSource,
} from './objectSource';
import { ReadBounds } from './readBounds';

/** The agent whose cluster a source may serve. @public */
export interface GitlabEnvClusterTarget {
  /** The GitLab instance, as gitlabEnv.instances[].host names it. */
  host: string;
  agent: GitlabAgentRef;
}

/**
 * A cluster source a backend module adds
 * (gitlabEnvObjectSourceExtensionPoint): it serves the Kubernetes objects of
 * the agents it claims instead of KAS, e.g. from a kubeconfig of its own.
 * What it answers is treated like KAS's answers: items are validated and
 * Secrets redacted by the backend, fail-closed; reads are bounded. It is
 * listed again periodically on live pages (it cannot watch).
 *
 * @public
 */
export interface GitlabEnvClusterSource {
  /** Whether it serves this agent's cluster; the first module's source that does wins, KAS serves the rest. */
  serves(target: GitlabEnvClusterTarget): boolean;
  /** The namespaced kinds that can be listed. */
  kinds(
    target: GitlabEnvClusterTarget,
    options: { signal?: AbortSignal },
  ): Promise<ListableKind[]>;
  /** The items of a kind in a namespace (undefined: every namespace), raw. */
  list(
    target: GitlabEnvClusterTarget,
    kind: ListableKind,
    namespace: string | undefined,
    options: { labelSelector?: string; signal?: AbortSignal },
  ): Promise<unknown[]>;
  /** One object, raw; undefined when it does not exist. */
  get(
    target: GitlabEnvClusterTarget,
    ref: ObjectRef,
    options: { signal?: AbortSignal },
  ): Promise<unknown | undefined>;
}

/** Failures of an adopter's source are typed like upstream ones. */
function typed(error: unknown, resource: string): never {
  if (error instanceof GitlabEnvFailure) throw error;
  throw new GitlabEnvFailure({
    ...asGitlabEnvError(error),
    code: 'UPSTREAM_ERROR',
    resource,
  });
}

/**
 * An adopter's source as the reader's ObjectSource: each item validated
 * and redacted as KAS's are (objects.ts), and counted against the read's
 * bounds.
 */
export function adopterObjectSource(
  source: GitlabEnvClusterSource,
  target: GitlabEnvClusterTarget,
  bounds: ReadBounds,
  labelSelector?: string,
): ObjectSource & {
  listAll(
    kind: ListableKind,
    namespace: string | undefined,
    keep?: (namespace: string) => boolean,
  ): Promise<KubernetesObject[]>;
} {
  const listAll = async (
    kind: ListableKind,
    namespace: string | undefined,
    keep?: (namespace: string) => boolean,
  ) => {
    const items = await source
      .list(target, kind, namespace, { labelSelector, signal: bounds.signal })
      .catch(error => typed(error, kind.label));
    const planned = {
      apiVersion: apiVersionOf(kind.group, kind.version),
      kind: kind.kind,
    };
    const objects: KubernetesObject[] = [];
    for (const item of Array.isArray(items) ? items : []) {
      const object = inspectOrWarn(
        item,
        planned,
        kind.label,
        bounds,
        namespace,
      );
      if (!object) continue;
      if (keep && !keep(object.metadata?.namespace ?? '')) continue;
      if (!bounds.take()) break;
      objects.push(object);
    }
    return objects;
  };
  return {
    listAll,
    list: (kind, namespace) => listAll(kind, namespace),
    get: async ref => {
      const item = await source
        .get(target, ref, { signal: bounds.signal })
        .catch(error => typed(error, ref.label));
      if (item === undefined) return undefined;
      return inspectOrWarn(
        item,
        { apiVersion: apiVersionOf(ref.group, ref.version), kind: ref.kind },
        ref.label,
        bounds,
        ref.namespace,
      );
    },
  };
}

/** How an environment's cluster is reached: KAS, or a backend module's source. */
export type ClusterAccess =
  | { via: 'kas'; kas(signal?: AbortSignal): KasClient }
  | {
      via: 'module';
      source: GitlabEnvClusterSource;
      target: GitlabEnvClusterTarget;
    };

/** The object source of a read through the access, within `bounds`. */
export function objectSourceOf(
  access: ClusterAccess,
  bounds: ReadBounds,
  labelSelector: string | undefined,
): ObjectSource {
  return access.via === 'kas'
    ? kasObjectSource(access.kas(bounds.signal), bounds, labelSelector)
    : adopterObjectSource(access.source, access.target, bounds, labelSelector);
}
