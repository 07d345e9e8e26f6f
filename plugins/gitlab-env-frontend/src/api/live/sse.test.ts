import { ServerSentEventTooLarge, readServerSentEvents } from './sse';

function body(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function read(chunks: string[], max = 1000) {
  const events = [];
  for await (const event of readServerSentEvents(body(chunks), max))
    events.push(event);
  return events;
}

describe('readServerSentEvents', () => {
  it('reads events split anywhere across chunks, with CRLF, CR or LF line ends', async () => {
    expect(
      await read([
        'id: 1\r',
        '\nevent: patch\r\nda',
        'ta: {"a":1}\r\n\r',
        '\nid: 2\revent: status\rdata: x\r\rdata:y\n\n',
      ]),
    ).toEqual([
      { event: 'patch', data: '{"a":1}', id: '1', retry: undefined },
      { event: 'status', data: 'x', id: '2', retry: undefined },
      { event: 'message', data: 'y', id: '2', retry: undefined },
    ]);
  });

  it('joins data lines, skips comments and events without data, and drops an unterminated last event', async () => {
    expect(
      await read([
        ': keep-alive\n\n',
        'event: nothing\n\n',
        'data: one\ndata:two\nretry: 500\n\n',
        'data: cut off',
      ]),
    ).toEqual([
      { event: 'message', data: 'one\ntwo', id: undefined, retry: 500 },
    ]);
  });

  it('refuses an event larger than its bound, also when it never ends its line', async () => {
    await expect(read([`data: ${'x'.repeat(50)}\n`], 20)).rejects.toThrow(
      ServerSentEventTooLarge,
    );
    await expect(read(['data: ', 'x'.repeat(50)], 20)).rejects.toThrow(
      ServerSentEventTooLarge,
    );
  });

  it('reads the same events however the stream is cut into three chunks', async () => {
    const stream =
      ': open\r\nid: 7\revent: snapshot\r\ndata: {"a":\ndata: 1}\r\n\r\n' +
      'event: patch\ndata: long line of the patch\n\ndata: last\r\r';
    const whole = await read([stream]);
    expect(whole).toHaveLength(3);
    for (let i = 0; i <= stream.length; i++) {
      for (let j = i; j <= stream.length; j += 3) {
        const cut = [stream.slice(0, i), stream.slice(i, j), stream.slice(j)];
        expect(await read(cut)).toEqual(whole);
      }
    }
  });

  it('reads one event whose data line spans many chunks whole', async () => {
    const value = 'x'.repeat(200_000);
    const stream = `event: snapshot\ndata: ${value}\n\n`;
    const chunks: string[] = [];
    for (let at = 0; at < stream.length; at += 1000)
      chunks.push(stream.slice(at, at + 1000));
    const [event] = await read(chunks, 300_000);
    expect(event.data).toBe(value);
  });
});
