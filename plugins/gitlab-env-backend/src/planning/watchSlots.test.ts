import { planWatchSlots, SlotHolder } from './watchSlots';

const SETTLE = 1000;
const NOW = 10_000;

function kind(
  name: string,
  mode: 'watch' | 'poll',
  priority: number,
  objects: number | undefined,
  emptyForMs?: number,
): SlotHolder & { name: string } {
  return {
    name,
    mode,
    priority,
    objects,
    emptySince: emptyForMs === undefined ? undefined : NOW - emptyForMs,
  };
}

const names = (holders: Array<{ name: string }>) => holders.map(h => h.name);

describe('planWatchSlots', () => {
  it('fills free slots with polled kinds that have objects (or are not listed yet) before empty ones, PRIORITY first, then the most objects', () => {
    const plan = planWatchSlots(
      [
        kind('empty-pod', 'poll', 0, 0),
        kind('crd-5', 'poll', 14, 5),
        kind('crd-50', 'poll', 14, 50),
        kind('service', 'poll', 7, 1),
        kind('unlisted', 'poll', 14, undefined),
      ],
      3,
      NOW,
      SETTLE,
    );
    expect(names(plan.promote)).toEqual(['service', 'crd-50', 'crd-5']);
    expect(plan.demote).toEqual([]);
  });

  it('gives the slot of a kind empty for a poll interval to a polled kind with objects, the lowest in PRIORITY first', () => {
    const plan = planWatchSlots(
      [
        kind('job', 'watch', 5, 0, SETTLE),
        kind('secret', 'watch', 14, 0, SETTLE + 5),
        kind('pod', 'watch', 0, 3),
        kind('events', 'poll', 14, 40),
      ],
      0,
      NOW,
      SETTLE,
    );
    expect(names(plan.demote)).toEqual(['secret']);
    expect(names(plan.promote)).toEqual(['events']);
    expect(plan.recheckAt).toBeUndefined();
  });

  it('keeps a watch that emptied less than a poll ago, and says when to look again', () => {
    const plan = planWatchSlots(
      [kind('job', 'watch', 5, 0, 300), kind('events', 'poll', 14, 40)],
      0,
      NOW,
      SETTLE,
    );
    expect(plan.demote).toEqual([]);
    expect(plan.promote).toEqual([]);
    expect(plan.recheckAt).toBe(NOW - 300 + SETTLE);
  });

  it('never takes the slot of a kind with objects, nor gives one for an empty or unlisted polled kind', () => {
    const plan = planWatchSlots(
      [
        kind('crd', 'watch', 14, 1),
        kind('job', 'watch', 5, 0, SETTLE * 3),
        kind('pod', 'poll', 0, 0),
        kind('unlisted', 'poll', 1, undefined),
      ],
      0,
      NOW,
      SETTLE,
    );
    expect(plan).toEqual({ promote: [], demote: [], recheckAt: undefined });
  });
});
