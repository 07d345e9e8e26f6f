import { ClusterStore } from './store';

export const CHANGED_AT = 'simulator.gitlab-env/changed-at';
const TICK_MS = 10;

/**
 * Changes pods at a steady rate, each write stamping the time it was made, so a
 * live benchmark can measure the delay from a write to the event reaching its client.
 * With `restarts`, each write is also a container restart (its containers'
 * `restartCount` goes up, as the kubelet's status update says): a change a
 * page draws, where the stamp alone is one it does not.
 */
export function startChurn(
  store: ClusterStore,
  perSecond: number,
  options: { namespaces?: string[]; restarts?: boolean } = {},
): () => void {
  const pods = store.registry.forKind('', 'Pod')!;
  const started = Date.now();
  let made = 0;
  let next = 0;
  const timer = setInterval(() => {
    const due = Math.floor(((Date.now() - started) / 1000) * perSecond);
    const candidates = options.namespaces
      ? options.namespaces.flatMap(ns => store.list(pods, ns))
      : store.list(pods);
    if (candidates.length === 0) return;
    for (; made < due; made++) {
      const pod = candidates[next++ % candidates.length];
      store.upsert({
        ...pod,
        metadata: {
          ...pod.metadata,
          annotations: {
            ...pod.metadata.annotations,
            [CHANGED_AT]: new Date().toISOString(),
          },
        },
        ...(options.restarts &&
          pod.status && { status: restarted(pod.status) }),
      });
    }
  }, TICK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

function restarted(status: any) {
  return {
    ...status,
    containerStatuses: (status.containerStatuses ?? []).map((c: any) => ({
      ...c,
      restartCount: (c.restartCount ?? 0) + 1,
    })),
  };
}
