import { encodeServerSentEvent } from './sseChunks';

function decoded(chunks: Buffer[]): string {
  return Buffer.concat(chunks).toString('utf8');
}

describe('encodeServerSentEvent', () => {
  it('writes exactly the event JSON.stringify would give', () => {
    const message = {
      type: 'snapshot',
      key: { entityRef: 'component:default/shop', slug: 'prod' },
      resources: {
        skipped: undefined,
        resources: [
          { metadata: { name: 'web', labels: { a: 'ü\n"' } }, n: 1.5 },
          undefined,
          null,
          [1, [2, [3, [4, { deep: true }]]]],
        ],
        at: new Date(0),
        flag: false,
        empty: {},
        list: [],
      },
    };
    expect(decoded(encodeServerSentEvent(message))).toBe(
      `event: snapshot\ndata: ${JSON.stringify(message)}\n\n`,
    );
  });

  it('cuts a big message into buffers of bounded size, none of them the whole', () => {
    const resources = Array.from({ length: 20_000 }, (_, i) => ({
      metadata: { name: `pod-${i}`, namespace: 'prod' },
      status: { phase: 'Running' },
    }));
    const message = { type: 'snapshot', resources };
    const chunks = encodeServerSentEvent(message);
    const text = decoded(chunks);
    expect(text).toBe(`event: snapshot\ndata: ${JSON.stringify(message)}\n\n`);
    expect(chunks.length).toBeGreaterThan(1);
    expect(Math.max(...chunks.map(c => c.length))).toBeLessThan(300 * 1024);
  });
});
