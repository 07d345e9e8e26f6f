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
});
