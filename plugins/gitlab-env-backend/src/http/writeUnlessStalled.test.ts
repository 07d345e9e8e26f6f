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

  it('does not end a stream for a snapshot larger than the bound alone', () => {
    const out = stalledClient();
    const snapshot = Buffer.alloc(300);
    expect(writeUnlessStalled(out, [snapshot], 100, { snapshot: true })).toBe(
      true,
    );
    // The status after it, and patches up to the bound, still go out.
    expect(writeUnlessStalled(out, [Buffer.alloc(60)], 100)).toBe(true);
    expect(writeUnlessStalled(out, [Buffer.alloc(41)], 100)).toBe(true);
    expect(out.writableEnded).toBe(false);
    // Past the bound beyond the snapshot, the client has stalled.
    expect(writeUnlessStalled(out, [Buffer.alloc(40)], 100)).toBe(false);
    expect(out.writableEnded).toBe(true);
  });

  it('counts a second snapshot against the bound, not beside the first', () => {
    const out = stalledClient();
    expect(
      writeUnlessStalled(out, [Buffer.alloc(300)], 100, { snapshot: true }),
    ).toBe(true);
    expect(
      writeUnlessStalled(out, [Buffer.alloc(300)], 100, { snapshot: true }),
    ).toBe(true);
    expect(writeUnlessStalled(out, ['x'], 100)).toBe(false);
  });

  it('forgets the snapshot once the client read it', async () => {
    const written: Buffer[] = [];
    let release: (() => void) | undefined;
    const out = new Writable({
      highWaterMark: 16,
      write: (chunk, _encoding, done) => {
        written.push(chunk);
        release = done;
      },
    });
    writeUnlessStalled(out, [Buffer.alloc(300)], 100, { snapshot: true });
    release!();
    await new Promise(resolve => setImmediate(resolve));
    expect(out.writableLength).toBe(0);
    // Drained: 150 unsent bytes now pass the bound of 100 on their own.
    writeUnlessStalled(out, [Buffer.alloc(150)], 100);
    expect(writeUnlessStalled(out, ['x'], 100)).toBe(false);
  });
});
