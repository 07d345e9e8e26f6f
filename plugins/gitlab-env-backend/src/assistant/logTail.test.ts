import { readLogTail } from './logTail';

function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks)
        controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });
}

describe('readLogTail', () => {
  it('keeps a short log whole', async () => {
    expect(
      await readLogTail(streamOf('one\n', 'two\nthree\n'), {
        keepBytes: 100,
        readBytes: 1000,
      }),
    ).toEqual({ text: 'one\ntwo\nthree\n', lines: 3, truncated: false });
  });

  it('keeps the newest whole lines that fit, across chunks', async () => {
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i}\n`);
    const tail = await readLogTail(streamOf(...lines), {
      keepBytes: 30,
      readBytes: 10_000,
    });
    expect(tail).toEqual({
      text: 'line 47\nline 48\nline 49\n',
      lines: 3,
      truncated: true,
    });
    // A line that fits exactly is kept.
    expect(
      (await readLogTail(streamOf(...lines), { keepBytes: 32, readBytes: 1e4 }))
        .lines,
    ).toBe(4);
  });

  it('never splits a character: the kept text starts at a line', async () => {
    const tail = await readLogTail(streamOf('ééééé\nné\n'), {
      keepBytes: 6,
      readBytes: 100,
    });
    expect(tail.text).toBe('né\n');
    expect(tail.truncated).toBe(true);
  });

  it('stops reading at readBytes', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new TextEncoder().encode(`${'x'.repeat(99)}\n`));
      },
    });
    const tail = await readLogTail(endless, {
      keepBytes: 250,
      readBytes: 1000,
    });
    expect(tail.lines).toBe(2);
    expect(pulled).toBeLessThan(20);
  });
});
