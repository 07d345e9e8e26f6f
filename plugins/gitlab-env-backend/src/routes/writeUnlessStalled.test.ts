import { Writable } from 'stream';
import { writeUnlessStalled } from './createLiveRouter';

/** A client that never reads: nothing written ever leaves the buffer. */
function stalledClient() {
  return new Writable({ write: () => undefined, highWaterMark: 16 });
}

describe('writeUnlessStalled', () => {
  it('writes while what waits unsent stays within the bound', () => {
    const out = stalledClient();
    expect(writeUnlessStalled(out, ['id: 1\n', 'event: x\n\n'], 100)).toBe(
      true,
    );
    expect(out.writableEnded).toBe(false);
  });

  it('ends the stream of a client that stopped reading once the bound is passed', () => {
    const out = stalledClient();
    const chunk = Buffer.alloc(40);
    const results = [1, 2, 3, 4].map(() =>
      writeUnlessStalled(out, [chunk], 100),
    );
    expect(results).toEqual([true, true, true, false]);
    expect(out.writableEnded).toBe(true);
    expect(out.writableLength).toBe(120);
  });
});
