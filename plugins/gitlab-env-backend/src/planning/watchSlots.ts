/** One kind of an agent that could hold a watch, as the slot plan sees it. */
export interface SlotHolder {
  mode: 'watch' | 'poll';
  /** Rank among the kinds people watch first (PRIORITY): lower first. */
  priority: number;
  /** Objects it holds in its whole scope; undefined until its first list. */
  objects: number | undefined;
  /** Since when (ms) it has held no objects; undefined while it holds some. */
  emptySince: number | undefined;
}

export interface SlotPlan<T> {
  /** Polled kinds that take a watch. */
  promote: T[];
  /** Watched empty kinds that give theirs to a kind with objects. */
  demote: T[];
  /** When an empty watched kind will have settled, for a kind with objects still waiting. */
  recheckAt?: number;
}

const byNeed = (a: SlotHolder, b: SlotHolder) =>
  a.priority - b.priority || (b.objects ?? 0) - (a.objects ?? 0);

/**
 * Who holds the agent's watches: a free slot goes to a polled kind, those
 * with objects (or not listed yet) first, PRIORITY first among them, then
 * the most objects. A polled kind with objects also takes the slot of a
 * watched kind that has been empty for `settleMs` (its first list plus one
 * poll), the lowest in PRIORITY first: a kind that empties and fills again
 * within a poll keeps its watch, and a kind with objects never gives its
 * slot up for another.
 */
export function planWatchSlots<T extends SlotHolder>(
  holders: readonly T[],
  free: number,
  now: number,
  settleMs: number,
): SlotPlan<T> {
  const polled = holders.filter(h => h.mode === 'poll');
  const waiting = [
    ...polled.filter(h => h.objects !== 0).sort(byNeed),
    ...polled.filter(h => h.objects === 0).sort(byNeed),
  ];
  const promote = waiting.slice(0, Math.max(0, free));
  const needing = waiting
    .slice(promote.length)
    .filter(h => (h.objects ?? 0) > 0);
  const empty = holders
    .filter(h => h.mode === 'watch' && h.emptySince !== undefined)
    .sort((a, b) => byNeed(b, a));
  const settled = empty.filter(h => now - h.emptySince! >= settleMs);
  const swaps = Math.min(needing.length, settled.length);
  const demote = settled.slice(0, swaps);
  promote.push(...needing.slice(0, swaps));
  const unsettled = empty.filter(h => !settled.includes(h));
  const recheckAt =
    needing.length > swaps && unsettled.length > 0
      ? Math.min(...unsettled.map(h => h.emptySince! + settleMs))
      : undefined;
  return { promote, demote, recheckAt };
}
