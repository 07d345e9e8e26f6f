/** One server-sent event, as the HTML standard's event stream defines it. */
export interface ServerSentEvent {
  /** The `event:` field; `message` when absent. */
  event: string;
  data: string;
  /** The last `id:` seen on the stream, carried by every later event. */
  id?: string;
  /** A `retry:` field, in milliseconds. */
  retry?: number;
}

/** Thrown when one event grows past the bound the reader was given. */
export class ServerSentEventTooLarge extends Error {
  readonly name = 'ServerSentEventTooLarge';
}

/**
 * Reads server-sent events from a response body, each as soon as its
 * blank line arrives (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation):
 * lines end in CRLF, LF or CR; `:` starts a comment; `data:` lines join
 * with a newline; an event without data is not dispatched. EventSource is
 * not used because it cannot send Backstage's Authorization header.
 * `maxEventChars` bounds what one event may buffer (the stream is
 * untrusted): past it the reader throws rather than grow without end.
 */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array>,
  maxEventChars: number,
  /** Called for every chunk read, comments included: the stream is alive. */
  onBytes?: () => void,
  /** Stops reading, also where aborting the fetch does not end its body. */
  signal?: AbortSignal,
): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const stop = () => reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', stop);
  const decoder = new TextDecoder();
  let pending = '';
  let skipLeadingLf = false;
  let data: string[] = [];
  let dataChars = 0;
  let event = '';
  let lastId: string | undefined;
  let retry: number | undefined;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (signal?.aborted) throw signal.reason;
      if (value && value.length > 0) onBytes?.();
      let text = pending + decoder.decode(value, { stream: !done });
      if (skipLeadingLf && text.startsWith('\n')) text = text.slice(1);
      skipLeadingLf = false;
      let start = 0;
      for (;;) {
        const cr = text.indexOf('\r', start);
        const lf = text.indexOf('\n', start);
        let end = Math.min(cr, lf);
        if (cr === -1 || lf === -1) end = Math.max(cr, lf);
        if (end === -1) break;
        const line = text.slice(start, end);
        start = end + 1;
        if (text[end] === '\r') {
          if (start === text.length) skipLeadingLf = true;
          else if (text[start] === '\n') start++;
        }
        if (line === '') {
          if (data.length > 0) {
            yield {
              event: event || 'message',
              data: data.join('\n'),
              id: lastId,
              retry,
            };
          }
          data = [];
          dataChars = 0;
          event = '';
          retry = undefined;
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        let fieldValue = colon === -1 ? '' : line.slice(colon + 1);
        if (fieldValue.startsWith(' ')) fieldValue = fieldValue.slice(1);
        if (field === 'data') {
          dataChars += fieldValue.length + 1;
          if (dataChars > maxEventChars) {
            throw new ServerSentEventTooLarge(
              `An event of the live stream exceeds ${maxEventChars} characters`,
            );
          }
          data.push(fieldValue);
        } else if (field === 'event') event = fieldValue;
        else if (field === 'id' && !fieldValue.includes('\0'))
          lastId = fieldValue;
        else if (field === 'retry' && /^\d+$/.test(fieldValue))
          retry = Number(fieldValue);
      }
      pending = text.slice(start);
      if (pending.length + dataChars > maxEventChars) {
        throw new ServerSentEventTooLarge(
          `An event of the live stream exceeds ${maxEventChars} characters`,
        );
      }
      // An event not ended by a blank line when the stream ends is dropped.
      if (done) return;
    }
  } finally {
    signal?.removeEventListener('abort', stop);
    stop();
  }
}
