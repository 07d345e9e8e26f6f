/** The size chunks of an encoded event grow to before they become a buffer. */
const CHUNK_CHARS = 256 * 1024;

/** Arrays and objects this deep are written member by member; deeper ones whole. */
const SPLIT_DEPTH = 4;

/** Collects text into buffers of about CHUNK_CHARS. */
class ChunkWriter {
  readonly chunks: Buffer[] = [];
  private pending: string[] = [];
  private pendingChars = 0;

  write(text: string) {
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars >= CHUNK_CHARS) this.cut();
  }

  cut() {
    if (this.pendingChars === 0) return;
    this.chunks.push(Buffer.from(this.pending.join('')));
    this.pending = [];
    this.pendingChars = 0;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
}

/** Writes what JSON.stringify(value) would give, splitting big arrays and objects into members. */
function writeJson(value: unknown, out: ChunkWriter, depth: number) {
  if (
    depth >= SPLIT_DEPTH ||
    (!Array.isArray(value) && !isPlainObject(value))
  ) {
    out.write(JSON.stringify(value) ?? 'null');
    return;
  }
  if (Array.isArray(value)) {
    out.write('[');
    value.forEach((item, i) => {
      if (i > 0) out.write(',');
      // As JSON.stringify: undefined, functions and symbols in arrays are null.
      const skipped =
        item === undefined ||
        typeof item === 'function' ||
        typeof item === 'symbol';
      if (skipped) out.write('null');
      else writeJson(item, out, depth + 1);
    });
    out.write(']');
    return;
  }
  out.write('{');
  let first = true;
  for (const [key, member] of Object.entries(value)) {
    if (
      member === undefined ||
      typeof member === 'function' ||
      typeof member === 'symbol'
    )
      continue;
    out.write(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    writeJson(member, out, depth + 1);
  }
  out.write('}');
}

/**
 * A server-sent event (`event:` the message's type, `data:` its JSON) as
 * buffers of about 256 KB. A snapshot of a big environment is tens of
 * megabytes: encoded member by member it never exists as one string (nor
 * as the string, its copy with the event's lines and the buffer at once),
 * which would triple the backend's peak while it encodes.
 */
export function encodeServerSentEvent(message: { type: string }): Buffer[] {
  const out = new ChunkWriter();
  out.write(`event: ${message.type}\ndata: `);
  writeJson(message, out, 0);
  out.write('\n\n');
  out.cut();
  return out.chunks;
}
