import { ClusterStore } from './store';

export const CHANGED_AT = 'simulator.gitlab-env/changed-at';
const TICK_MS = 10;

/**
 * Changes pods at a steady rate, each write stamping the time it was made, so a
 * live benchmark can measure the delay from a write to the event reaching its client.
 */
export function startChurn(
  store: ClusterStore,
  perSecond: number,
  options: { namespaces?: string[] } = {},
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
      });
    }
  }, TICK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
