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
  // The unfinished line, kept in parts: a snapshot's one data line spans
  // hundreds of chunks, and joining and rescanning it on each would make
  // reading it quadratic.
  let partial: string[] = [];
  let partialChars = 0;
  let skipLeadingLf = false;
  let data: string[] = [];
  let dataChars = 0;
  let event = '';
  let lastId: string | undefined;
  let retry: number | undefined;
  const tooLarge = () =>
    new ServerSentEventTooLarge(
      `An event of the live stream exceeds ${maxEventChars} characters`,
    );
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (signal?.aborted) throw signal.reason;
      if (value && value.length > 0) onBytes?.();
      const text = decoder.decode(value, { stream: !done });
      let start = skipLeadingLf && text.startsWith('\n') ? 1 : 0;
      // An empty chunk between a CR and its LF leaves the LF to skip.
      if (text.length > 0) skipLeadingLf = false;
      // Where the next CR and LF are, each searched for once per chunk.
      let cr = text.indexOf('\r', start);
      let lf = text.indexOf('\n', start);
      for (;;) {
        if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
        if (lf !== -1 && lf < start) lf = text.indexOf('\n', start);
        let end = Math.min(cr, lf);
        if (cr === -1 || lf === -1) end = Math.max(cr, lf);
        if (end === -1) break;
        let line = text.slice(start, end);
        if (partial.length > 0) {
          partial.push(line);
          line = partial.join('');
          partial = [];
          partialChars = 0;
        }
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
          if (dataChars > maxEventChars) throw tooLarge();
          data.push(fieldValue);
        } else if (field === 'event') event = fieldValue;
        else if (field === 'id' && !fieldValue.includes('\0'))
          lastId = fieldValue;
        else if (field === 'retry' && /^\d+$/.test(fieldValue))
          retry = Number(fieldValue);
      }
      if (start < text.length) {
        partial.push(text.slice(start));
        partialChars += text.length - start;
      }
      if (partialChars + dataChars > maxEventChars) throw tooLarge();
      // An event not ended by a blank line when the stream ends is dropped.
      if (done) return;
    }
  } finally {
    signal?.removeEventListener('abort', stop);
    stop();
  }
}
