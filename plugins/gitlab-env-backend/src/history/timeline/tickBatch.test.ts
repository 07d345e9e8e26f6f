import { TickBatch } from './tickBatch';

describe('TickBatch', () => {
  it('hands items added together to one call, and those added while it runs to the next', async () => {
    const calls: number[][] = [];
    let release!: () => void;
    const held = new Promise<void>(resolve => (release = resolve));
    const batch = new TickBatch<number, string>(async items => {
      calls.push(items);
      if (calls.length === 1) await held;
      return items.map(i => `#${i}`);
    });
    const first = [1, 2, 3].map(i => batch.add(i));
    while (calls.length === 0)
      await new Promise(resolve => setImmediate(resolve));
    const later = [4, 5].map(i => batch.add(i));
    await new Promise(resolve => setImmediate(resolve));
    expect(calls).toEqual([[1, 2, 3]]);
    release();
    expect(await Promise.all([...first, ...later])).toEqual([
      '#1',
      '#2',
      '#3',
      '#4',
      '#5',
    ]);
    expect(calls).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('fails every item of a batch whose handler fails, and goes on with the next', async () => {
    let fail = true;
    const batch = new TickBatch<number, number>(async items => {
      if (fail) throw new Error('down');
      return items;
    });
    const failed = [batch.add(1), batch.add(2)];
    await expect(failed[0]).rejects.toThrow('down');
    await expect(failed[1]).rejects.toThrow('down');
    fail = false;
    expect(await batch.add(3)).toBe(3);
  });
});
