import { IncomingMessage, ServerResponse } from 'http';

/**
 * Response writing shared by the GitLab and KAS surfaces. Every complete
 * (non-streaming) response goes through `sendBody`, which is where the
 * `slow-body` and `malformed-json` faults act.
 */

export type BodyFault = 'slow-body' | 'malformed-json' | 'invalid-utf8';

const bodyFaults = new WeakMap<ServerResponse, BodyFault>();
const bodyTransforms = new WeakMap<
  ServerResponse,
  (body: unknown) => string | undefined
>();

/** Rewrites the next JSON body of `res` (see dataFaults.ts); undefined keeps it as it is. */
export function markBodyTransform(
  res: ServerResponse,
  transform: (body: unknown) => string | undefined,
) {
  bodyTransforms.set(res, transform);
}

/** How long a `slow-body` response takes to dribble out, start to end. */
export const SLOW_BODY_DURATION_MS = 3000;
const SLOW_BODY_CHUNKS = 20;

export function markBodyFault(res: ServerResponse, fault: BodyFault) {
  bodyFaults.set(res, fault);
}

export function sendBody(
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string | number> = {},
) {
  const fault = bodyFaults.get(res);
  if (fault === 'invalid-utf8') {
    // Bytes no UTF-8 decoder accepts, inside an otherwise whole body.
    const bytes = Buffer.from(body);
    const at = Math.floor(bytes.length / 2);
    const broken = Buffer.concat([
      bytes.subarray(0, at),
      Buffer.from([0xff, 0xfe]),
      bytes.subarray(at),
    ]);
    res.writeHead(status, { ...headers, 'Content-Length': broken.length });
    res.end(broken);
    return;
  }
  if (fault === 'malformed-json') {
    // A proxy cut the body short but the status line already said 200.
    const truncated = body.slice(0, Math.max(1, Math.floor(body.length / 2)));
    res.writeHead(200, {
      ...headers,
      'Content-Length': Buffer.byteLength(truncated),
    });
    res.end(truncated);
    return;
  }
  if (fault === 'slow-body') {
    res.writeHead(status, {
      ...headers,
      'Content-Length': Buffer.byteLength(body),
    });
    const buffer = Buffer.from(body);
    const size = Math.ceil(buffer.length / SLOW_BODY_CHUNKS) || 1;
    let offset = 0;
    const timer = setInterval(() => {
      if (res.destroyed || offset >= buffer.length) {
        clearInterval(timer);
        res.end();
        return;
      }
      res.write(buffer.subarray(offset, offset + size));
      offset += size;
    }, SLOW_BODY_DURATION_MS / SLOW_BODY_CHUNKS);
    res.on('close', () => clearInterval(timer));
    return;
  }
  res.writeHead(status, {
    ...headers,
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | number> = {},
) {
  const transformed = bodyTransforms.get(res)?.(body);
  sendBody(res, status, transformed ?? JSON.stringify(body), {
    'Content-Type': 'application/json',
    ...headers,
  });
}

export async function readBody(
  req: IncomingMessage,
  limit = 5 * 1024 * 1024,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > limit) {
      throw new Error('request body too large');
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The secret from `Authorization: Bearer <t>` or `PRIVATE-TOKEN: <t>`. */
export function gitlabTokenOf(req: IncomingMessage): string | undefined {
  const privateToken = req.headers['private-token'];
  if (typeof privateToken === 'string' && privateToken) {
    return privateToken;
  }
  const authorization = req.headers.authorization;
  const match = authorization?.match(/^Bearer\s+(.+)$/i);
  return match?.[1];
}
