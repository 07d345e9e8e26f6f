import { groupOfApiVersion } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import type { RefreshTarget } from '../planning';
import { ActionWritten } from './environmentActionRoute';

/**
 * The lists a write makes stale. A restart, a scale or a rollback changes the
 * workload's ReplicaSets and Pods too, so its whole namespace is listed
 * again; a pod delete or a Flux write changes only the kinds written. An
 * object outside the environment's namespace (the Flux object, its
 * source) is also named under the environment's namespace: that is where
 * the live stream keys the environments that hold it.
 */
export function listsAfterWrite(written: ActionWritten): RefreshTarget[] {
  const whole =
    written.action === 'workload.restart' ||
    written.action === 'workload.scale' ||
    written.action === 'workload.rollback';
  const seen = new Set<string>();
  const lists: RefreshTarget[] = [];
  const add = (namespace: string, resource?: RefreshTarget['resource']) => {
    const key = `${namespace}|${resource?.group}|${resource?.kind}`;
    if (seen.has(key)) return;
    seen.add(key);
    lists.push({
      agent: written.agent,
      namespace,
      ...(resource ? { resource } : {}),
    });
  };
  for (const target of written.written) {
    const resource = whole
      ? undefined
      : { group: groupOfApiVersion(target.apiVersion), kind: target.kind };
    add(target.namespace, resource);
    const home = written.environmentNamespace;
    if (home && home !== target.namespace) add(home, resource);
  }
  return lists;
}
