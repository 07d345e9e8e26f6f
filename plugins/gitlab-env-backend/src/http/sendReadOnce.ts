import express from 'express';
import { setImmediate as yieldToLoop } from 'timers/promises';
import { promisify } from 'util';
import { gzip } from 'zlib';

const gzipAsync = promisify(gzip);

/** Array items serialized between two turns of the event loop. */
const ITEMS_PER_TURN = 500;

interface Serialized {
  /** The answer's other fields: an answer that differs in them is serialized anew. */
  head: string;
  json?: Promise<Buffer>;
  gzip?: Promise<Buffer>;
}

/**
 * Serializations by the read they come from (its `resources` array, which
 * every answer built from one cached read shares): forgotten with the read.
 */
const byRead = new WeakMap<object, Serialized>();

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * JSON.stringify's text, made a few hundred array items at a time with the
 * event loop served in between: a read of 20,000 objects is tens of MB of
 * JSON, which in one call would stop every other request for as long.
 */
async function stringifyYielding(
  value: unknown,
  out: string[],
  depth = 0,
): Promise<void> {
  if (Array.isArray(value) && value.length > ITEMS_PER_TURN) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      out.push(JSON.stringify(value[i]) ?? 'null');
      if (i % ITEMS_PER_TURN === ITEMS_PER_TURN - 1) await yieldToLoop();
    }
    out.push(']');
    return;
  }
  // The answer and its graph are plain objects holding the long arrays.
  if (isPlainObject(value) && depth < 2) {
    out.push('{');
    let first = true;
    for (const [key, field] of Object.entries(value)) {
      if (field === undefined || typeof field === 'function') continue;
      out.push(first ? '' : ',', JSON.stringify(key), ':');
      first = false;
      await stringifyYielding(field, out, depth + 1);
    }
    out.push('}');
    return;
  }
  out.push(JSON.stringify(value) ?? 'null');
}

async function serialize(body: unknown): Promise<Buffer> {
  const out: string[] = [];
  await stringifyYielding(body, out);
  return Buffer.from(out.join(''));
}

/**
 * Sends an environment's read as JSON, serialized (and gzipped, for
 * clients that accept it) once per cached read however many viewers ask
 * for it: each would otherwise stringify, compress and hold its own copy
 * of tens of MB. Sets Content-Encoding itself, so Backstage's compression
 * middleware leaves the answer alone.
 */
export async function sendReadOnce(
  req: express.Request,
  res: express.Response,
  body: { resources: object; graph?: unknown },
): Promise<void> {
  // The graph comes from the same read as the resources.
  const { resources, graph: _graph, ...rest } = body;
  const head = JSON.stringify(rest);
  let serialized = byRead.get(resources);
  if (!serialized || serialized.head !== head) {
    serialized = { head };
    byRead.set(resources, serialized);
  }
  const json = (serialized.json ??= serialize(body));
  const gzipped = req.acceptsEncodings('gzip') === 'gzip';
  const bytes = gzipped
    ? await (serialized.gzip ??= json.then(plain => gzipAsync(plain)))
    : await json;
  res.status(200);
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('vary', 'Accept-Encoding');
  if (gzipped) res.setHeader('content-encoding', 'gzip');
  res.setHeader('content-length', bytes.byteLength);
  res.end(bytes);
}
