/** The end of a log, as much as fits an assistant's answer. */
export interface LogTail {
  /** Whole lines, oldest first, the last one possibly without its newline. */
  text: string;
  lines: number;
  /** Lines (or the start of the first one) were dropped to stay within the bytes. */
  truncated: boolean;
}

/**
 * Reads a log stream to its end, at most `readBytes` of it (the cluster
 * was asked for no more; a stream that sends more is cut there), and keeps
 * its last `keepBytes` from a line's start: the newest lines win.
 */
export async function readLogTail(
  stream: ReadableStream<Uint8Array>,
  limits: { keepBytes: number; readBytes: number },
): Promise<LogTail> {
  const reader = stream.getReader();
  const chunks: Buffer[] = [];
  let held = 0;
  let read = 0;
  /** The byte before the first one held, once some were dropped. */
  let before: number | undefined;
  try {
    while (read < limits.readBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      const chunk = Buffer.from(value).subarray(0, limits.readBytes - read);
      read += chunk.length;
      chunks.push(chunk);
      held += chunk.length;
      // Hold little more than what is kept, however long the log.
      while (chunks.length > 1 && held - chunks[0].length >= limits.keepBytes) {
        const first = chunks.shift()!;
        held -= first.length;
        before = first[first.length - 1];
      }
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
  let bytes = Buffer.concat(chunks);
  if (bytes.length > limits.keepBytes) {
    before = bytes[bytes.length - limits.keepBytes - 1];
    bytes = bytes.subarray(bytes.length - limits.keepBytes);
  }
  const truncated = before !== undefined;
  if (truncated && before !== 0x0a) {
    // Start at a whole line (which is also a whole UTF-8 character).
    const newline = bytes.indexOf(0x0a);
    bytes = newline < 0 ? Buffer.alloc(0) : bytes.subarray(newline + 1);
  }
  const text = bytes.toString('utf8');
  const lines = text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
  return { text, lines, truncated };
}
