/**
 * One HTTP exchange over node:http / node:https: sends a request and hands
 * back the answer's status, its headers (a WHATWG `Headers`, as fetch's)
 * and its body, decoded as fetch decodes it (gzip, deflate, br).
 *
 * Not fetch: every upstream answer of a page passes here, and undici's
 * Request, Response and Headers objects and WHATWG streams cost the main
 * thread more per request than node:http, body read included. What fetch
 * did besides is done here: its default request headers (content
 * negotiation included), the decoding, no redirect followed (fetch's
 * `redirect: 'manual'`), and aborts by signal.
 *
 * Requests go through `http.globalAgent` / `https.globalAgent`, read at
 * each request: on Node 20 and later they keep sockets alive and open as
 * many as are asked for (the plugin's own concurrency limits bound them),
 * and an adopter who replaces them to reach a corporate proxy (global-agent,
 * as Backstage's proxy guide does) has them apply here.
 */
import http from 'http';
import https from 'https';
import type { IncomingMessage } from 'http';
import type { Readable } from 'stream';
import zlib from 'zlib';
import { whenAborted } from './deadline';

export interface ExchangeRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** An answer whose headers arrived; its body is read by the caller. */
export interface Answer {
  status: number;
  headers: Headers;
  /** Content-Length as sent (of the body before decoding). */
  declaredLength: number | undefined;
  /** The body, decoded when the answer says it is compressed. */
  body: Readable;
  /** The content coding whose data `error` (of `body`) found corrupt; undefined for the connection's errors. */
  corruptCoding(error: unknown): string | undefined;
  /** Stops reading: the response and its connection are destroyed. */
  close(): void;
}

/** What fetch sent unless the caller said otherwise. */
const DEFAULT_HEADERS: Record<string, string> = {
  accept: '*/*',
  'user-agent': 'node',
  'accept-encoding': 'gzip, deflate',
};

/** Statuses whose answers have no body (and so nothing to decode). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

function requestHeaders(request: ExchangeRequest): Record<string, string> {
  const headers: Record<string, string> = { ...DEFAULT_HEADERS };
  for (const [name, value] of Object.entries(request.headers ?? {}))
    headers[name.toLowerCase()] = value;
  const method = request.method ?? 'GET';
  if (request.body !== undefined) {
    headers['content-type'] ??= 'text/plain;charset=UTF-8';
    headers['content-length'] = String(Buffer.byteLength(request.body));
  } else if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
    headers['content-length'] = '0';
  }
  return headers;
}

function abortError(signal: AbortSignal): Error {
  const error = new Error('The request was aborted.', {
    cause: signal.reason,
  });
  error.name = 'AbortError';
  return error;
}

function headersOf(response: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = response.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2)
    headers.append(raw[i], raw[i + 1]);
  return headers;
}

/** The decoders of a Content-Encoding, outermost coding last (as undici: an unknown coding leaves the body as sent). */
interface Decoder {
  coding: string;
  decoder: zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress;
}

function decodersFor(encoding: string | undefined): Decoder[] {
  if (!encoding) return [];
  const codings = encoding.toLowerCase().split(',');
  const decoders: Decoder[] = [];
  // Flushing as undici does: what arrived is handed on at once, and a body
  // cut short ends with what it had (its reader finds it unparseable).
  const flush = {
    flush: zlib.constants.Z_SYNC_FLUSH,
    finishFlush: zlib.constants.Z_SYNC_FLUSH,
  };
  for (let i = codings.length - 1; i >= 0; i--) {
    const coding = codings[i].trim();
    if (coding === 'gzip' || coding === 'x-gzip')
      decoders.push({ coding, decoder: zlib.createGunzip(flush) });
    else if (coding === 'deflate')
      decoders.push({ coding, decoder: zlib.createInflate(flush) });
    else if (coding === 'br')
      decoders.push({
        coding,
        decoder: zlib.createBrotliDecompress({
          flush: zlib.constants.BROTLI_OPERATION_FLUSH,
          finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
        }),
      });
    else if (coding !== 'identity') {
      for (const { decoder } of decoders) decoder.destroy();
      return [];
    }
  }
  return decoders;
}

/**
 * Sends `request`; resolves once the answer's headers are in. `signal`
 * ends the exchange at any point, body included: before the answer the
 * promise rejects, after it the body fails with an AbortError.
 */
export function openExchange(
  request: ExchangeRequest,
  signal: AbortSignal,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError(signal));
      return;
    }
    const secure = request.url.startsWith('https:');
    if (!secure && !request.url.startsWith('http:')) {
      reject(new TypeError('Only http: and https: URLs can be requested.'));
      return;
    }
    const client = secure ? https : http;
    const outgoing = client.request(request.url, {
      method: request.method ?? 'GET',
      headers: requestHeaders(request),
    });
    // Whatever is open of the exchange, destroyed at once on abort.
    let parts: Array<{ destroy(error?: Error): unknown }> = [outgoing];
    // The first failure: the body's later errors are its echoes.
    let failed = false;
    let corrupt: { coding: string; error: unknown } | undefined;
    const destroyAll = (error?: Error) => {
      for (const part of parts) part.destroy(error);
    };
    const stopListening = whenAborted(signal, () => {
      failed = true;
      destroyAll(abortError(signal));
    });
    // Errors after the answer reach its body; this one keeps a late one
    // from being unhandled.
    outgoing.on('error', error => {
      stopListening();
      reject(error);
    });
    outgoing.once('response', (response: IncomingMessage) => {
      let headers: Headers;
      try {
        headers = headersOf(response);
      } catch (error) {
        stopListening();
        response.destroy();
        reject(error);
        return;
      }
      const decoders = NULL_BODY_STATUSES.has(response.statusCode ?? 0)
        ? []
        : decodersFor(response.headers['content-encoding']);
      parts = [response, ...decoders.map(d => d.decoder), outgoing];
      response.on('error', error => {
        failed = true;
        destroyAll(error);
      });
      const decodingFailed = (coding: string) => (error: Error) => {
        if (!failed) corrupt = { coding, error };
        failed = true;
        destroyAll(error);
      };
      let body: Readable = response;
      for (const { coding, decoder } of decoders) {
        decoder.on('error', decodingFailed(coding));
        body = body.pipe(decoder);
      }
      body.once('close', stopListening);
      const length = Number(response.headers['content-length']);
      resolve({
        status: response.statusCode ?? 0,
        headers,
        declaredLength: Number.isFinite(length) ? length : undefined,
        body,
        corruptCoding: error =>
          corrupt && corrupt.error === error ? corrupt.coding : undefined,
        close: () => {
          // An error, not a bare destroy: msw's node:http interception
          // stops writing a mocked body on a socket error only.
          failed = true;
          destroyAll(new Error('The answer was closed by its reader.'));
        },
      });
    });
    outgoing.end(request.body);
  });
}

/** A body read whole, or why it was not. */
export type BodyRead =
  | { bytes: Uint8Array }
  | { tooLarge: true }
  | { corrupt: string };

const TOO_LARGE: BodyRead = { tooLarge: true };

/**
 * Reads at most `maxBytes` of decoded body, stopping (the answer closed)
 * as soon as there are more; a declared length past it stops before
 * anything is read. Rejects with the connection's errors and aborts.
 */
export function readBody(answer: Answer, maxBytes: number): Promise<BodyRead> {
  if (answer.declaredLength !== undefined && answer.declaredLength > maxBytes) {
    answer.close();
    return Promise.resolve(TOO_LARGE);
  }
  const { body } = answer;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (error: unknown) => {
      const coding = answer.corruptCoding(error);
      if (coding)
        resolve({ corrupt: `a body whose ${coding} compression is corrupt` });
      else reject(error);
    };
    if (body.destroyed) {
      fail(body.errored ?? new Error('The answer was closed.'));
      return;
    }
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        body.off('data', onData);
        answer.close();
        resolve(TOO_LARGE);
        return;
      }
      chunks.push(chunk);
    };
    body.on('data', onData);
    body.once('end', () =>
      resolve({
        bytes: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size),
      }),
    );
    body.once('error', fail);
    // Destroyed with no error and no end: only answer.close() does that.
    body.once('close', () => reject(new Error('The answer was closed.')));
  });
}

/**
 * The body as a WHATWG stream, read as its reader pulls; cancelling it
 * closes the answer. `onSettled` is told once when it ends, fails or is
 * cancelled.
 */
export function bodyStream(
  answer: Answer,
  onSettled: () => void,
): ReadableStream<Uint8Array> {
  const { body } = answer;
  let settled = false;
  const settle = () => {
    if (settled) return false;
    settled = true;
    onSettled();
    return true;
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (body.destroyed) {
        settle();
        controller.error(body.errored ?? new Error('The answer was closed.'));
        return;
      }
      body.on('data', (chunk: Buffer) => {
        if (settled) return;
        controller.enqueue(chunk);
        if ((controller.desiredSize ?? 0) <= 0) body.pause();
      });
      body.once('end', () => {
        if (settle()) controller.close();
      });
      body.once('error', error => {
        if (settle()) controller.error(error);
      });
      body.once('close', () => {
        if (settle()) controller.error(new Error('The answer was closed.'));
      });
    },
    pull() {
      body.resume();
    },
    cancel() {
      settle();
      answer.close();
    },
  });
}
