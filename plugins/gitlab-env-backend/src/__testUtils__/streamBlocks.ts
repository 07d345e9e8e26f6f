/**
 * Calls `onBlock` with each block of a streamed body that ends with
 * `separator` (`\n` for NDJSON, `\n\n` for server-sent events), as it
 * arrives; resolves when the body ends, or is aborted.
 */
export async function forEachBlock(
  body: ReadableStream<Uint8Array> | null,
  separator: string,
  onBlock: (block: string) => void,
): Promise<void> {
  if (!body) return;
  const decoder = new TextDecoder();
  let pending = '';
  try {
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      pending += decoder.decode(chunk, { stream: true });
      let end = pending.indexOf(separator);
      while (end !== -1) {
        const block = pending.slice(0, end);
        pending = pending.slice(end + separator.length);
        onBlock(block);
        end = pending.indexOf(separator);
      }
    }
  } catch {
    // aborted
  }
}
