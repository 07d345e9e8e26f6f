import { setTimeout as delay } from 'timers/promises';
import { failure, GitlabEnvFailure } from '../errors';
import { deadlineSignal, timeoutReason, whenAborted } from './deadline';
import {
  Answer,
  bodyStream,
  BodyRead,
  openExchange,
  readBody,
} from './httpExchange';

/** What an upstream answered, body parsed as JSON when it was JSON. */
export interface UpstreamResponse {
  status: number;
  headers: Headers;
  body?: unknown;
  /** Why the body is unusable: not JSON, cut short, not UTF-8, nested too deep. */
  malformed?: string;
  /** A 2xx body as it came, with `rawBody`. */
  bytes?: Uint8Array;
}

export interface UpstreamRequest {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Which upstream, for messages: "GitLab" or "KAS". */
  upstream: string;
  /**
   * Ends the whole call, retries and back-off included: the request's
   * deadline, or every reader of a shared read having gone.
   */
  signal?: AbortSignal;
  /** Bytes accepted in the answer, once decoded; past it the call fails with LIMIT_REACHED (or `tooLarge`). */
  maxBytes?: number;
  /**
   * A size the answer's headers declare besides Content-Length (GitLab's
   * X-Gitlab-Size): past `maxBytes`, the body is not read at all.
   */
  declaredSize?: (headers: Headers) => number | undefined;
  /** The failure for an answer past `maxBytes`, with the declared size when that is what refused it. */
  tooLarge?: (declaredBytes: number | undefined) => GitlabEnvFailure;
  /** Hands a 2xx body over as bytes (`bytes`) instead of parsing it as JSON: files. */
  rawBody?: boolean;
  /**
   * Extra attempts for idempotent reads on 5xx, resets and timeouts.
   * Only safe for requests whose repetition changes nothing (GETs, read-only
   * GraphQL queries).
   */
  retries?: number;
  /** Statuses worth another attempt; 4xx never are. */
  retryStatuses?: number[];
  /** False: a timed-out attempt is not repeated (default true). */
  retryTimeouts?: boolean;
  /** Maps a connection failure (refused, reset) that outlasted the retries to a failure. */
  onConnectionError?: (cause: unknown) => GitlabEnvFailure;
}

const DEFAULT_RETRY_STATUSES = [500, 502, 503, 504];
const BACKOFF_BASE_MS = 100;
const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

/** A connection failure before an answer: worth another attempt, mapped only once they run out. */
class ConnectionFailure extends Error {
  constructor(readonly cause: unknown) {
    super('connection failed');
  }
}

function stoppedFailure(request: UpstreamRequest): GitlabEnvFailure {
  return failure(
    'UPSTREAM_TIMEOUT',
    `The read from ${request.upstream} was stopped: the request reached its deadline (gitlabEnv.requestDeadlineMs) or its caller left.`,
    {
      hint: 'Try again later; if it persists, narrow the read with the gitlab-env/label-selector annotation or raise gitlabEnv.requestDeadlineMs.',
    },
  );
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return delay(ms, undefined, { signal });
}

/** Exponential back-off with full jitter, so retries of many callers spread out. */
function backoff(retry: number): number {
  return Math.random() * BACKOFF_BASE_MS * 2 ** retry;
}

function isAbort(error: unknown): boolean {
  const name = (error as Error | undefined)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Parses a JSON body; says why when it cannot be used. */
export function parseBody(bytes: Uint8Array): {
  body?: unknown;
  malformed?: string;
} {
  if (bytes.byteLength === 0) return {};
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { malformed: 'a body that is not valid UTF-8' };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { malformed: 'a body that is not JSON (or was cut short)' };
  }
  // Depth is checked per object by its reader (normalizeObject), so one
  // deep object costs that object only.
  return { body };
}

function timedOut(request: UpstreamRequest): GitlabEnvFailure {
  return failure(
    'UPSTREAM_TIMEOUT',
    `${request.upstream} did not answer within ${request.timeoutMs} ms.`,
    {
      hint: 'Try again later; if it persists, check the instance or raise gitlabEnv.requestTimeoutMs.',
    },
  );
}

async function attempt(request: UpstreamRequest): Promise<UpstreamResponse> {
  const { signal, dispose } = deadlineSignal(request.timeoutMs, [
    request.signal,
  ]);
  const maxBytes = request.maxBytes ?? DEFAULT_MAX_BYTES;
  let answer: Answer;
  let read: BodyRead | undefined;
  let declared: number | undefined;
  try {
    answer = await openExchange(request, signal);
    declared = request.declaredSize?.(answer.headers);
    if (declared !== undefined && declared > maxBytes) {
      // Nothing of the body is read.
      answer.close();
    } else {
      read = await readBody(answer, maxBytes);
    }
  } catch (error) {
    if (request.signal?.aborted) throw stoppedFailure(request);
    if (signal.aborted || isAbort(error)) throw timedOut(request);
    throw new ConnectionFailure(error);
  } finally {
    dispose();
  }
  if (read === undefined || 'tooLarge' in read) {
    if (request.tooLarge)
      throw request.tooLarge(
        declared !== undefined && declared > maxBytes ? declared : undefined,
      );
    throw failure(
      'LIMIT_REACHED',
      `${request.upstream} answered with more than ${maxBytes} bytes (gitlabEnv.limits.maxResponseBytes).`,
      {
        hint: 'Narrow the read with the gitlab-env/label-selector annotation, or raise gitlabEnv.limits.maxResponseBytes.',
      },
    );
  }
  const { status, headers } = answer;
  if ('corrupt' in read) return { status, headers, malformed: read.corrupt };
  if (request.rawBody && status >= 200 && status < 300)
    return { status, headers, bytes: read.bytes };
  return { status, headers, ...parseBody(read.bytes) };
}

function retryable(error: unknown, request: UpstreamRequest): boolean {
  if (error instanceof ConnectionFailure) return true;
  if (!(error instanceof GitlabEnvFailure)) return false;
  if (error.detail.code === 'UPSTREAM_TIMEOUT')
    return request.retryTimeouts !== false;
  return error.detail.code === 'UPSTREAM_ERROR';
}

function connectionFailure(
  request: UpstreamRequest,
  error: ConnectionFailure,
): GitlabEnvFailure {
  if (request.onConnectionError) return request.onConnectionError(error.cause);
  return failure(
    'UPSTREAM_ERROR',
    `The connection to ${request.upstream} failed.`,
  );
}

/**
 * One upstream call with a timeout on every attempt; retries reads that
 * failed in a way another attempt may fix (5xx, reset, timeout, a body cut
 * short or not UTF-8) with
 * jittered back-off, never past `signal`. Never throws anything but
 * GitlabEnvFailure, whose messages carry no URL credentials or tokens.
 */
export async function requestUpstream(
  request: UpstreamRequest,
): Promise<UpstreamResponse> {
  const retries = request.retries ?? 2;
  const statuses = request.retryStatuses ?? DEFAULT_RETRY_STATUSES;
  for (let n = 0; ; n++) {
    if (request.signal?.aborted) throw stoppedFailure(request);
    try {
      const response = await attempt(request);
      // A body cut short or garbled on the way is a transport failure too:
      // the read is idempotent, another attempt may get it whole.
      const garbled =
        response.malformed !== undefined &&
        response.status >= 200 &&
        response.status < 300;
      if (n < retries && (statuses.includes(response.status) || garbled)) {
        await sleep(backoff(n), request.signal);
        continue;
      }
      return response;
    } catch (error) {
      if (request.signal?.aborted) throw stoppedFailure(request);
      if (n < retries && retryable(error, request)) {
        try {
          await sleep(backoff(n), request.signal);
        } catch {
          throw stoppedFailure(request);
        }
        continue;
      }
      if (error instanceof ConnectionFailure)
        throw connectionFailure(request, error);
      throw error;
    }
  }
}

/** An answer whose body is left unread for the caller to stream. */
export interface UpstreamStream {
  status: number;
  headers: Headers;
  /** The body of a 2xx answer, unread. */
  stream?: ReadableStream<Uint8Array>;
  /** The body of any other answer, read within `maxBytes` and parsed. */
  body?: unknown;
  malformed?: string;
}

/**
 * Opens one upstream call and hands a 2xx body over unread: watches and
 * log streams last as long as their reader wants, so `timeoutMs` bounds
 * only the wait for the answer's headers, and `signal` ends the stream.
 * Never retried: the caller decides whether a stream is worth opening
 * again. Other answers are read and parsed as `requestUpstream` does.
 */
export async function openUpstreamStream(
  request: UpstreamRequest,
): Promise<UpstreamStream> {
  if (request.signal?.aborted) throw stoppedFailure(request);
  const controller = new AbortController();
  const stopListening = request.signal
    ? whenAborted(request.signal, () =>
        controller.abort(request.signal?.reason),
      )
    : () => undefined;
  const timer = setTimeout(
    () => controller.abort(timeoutReason(request.timeoutMs)),
    request.timeoutMs,
  );
  let answer: Answer;
  try {
    answer = await openExchange(request, controller.signal);
  } catch (error) {
    stopListening();
    if (request.signal?.aborted) throw stoppedFailure(request);
    if (controller.signal.aborted || isAbort(error)) {
      throw failure(
        'UPSTREAM_TIMEOUT',
        `${request.upstream} did not answer within ${request.timeoutMs} ms.`,
      );
    }
    throw (
      request.onConnectionError?.(error) ??
      failure('UPSTREAM_ERROR', `The connection to ${request.upstream} failed.`)
    );
  } finally {
    clearTimeout(timer);
  }
  const { status, headers } = answer;
  if (status >= 200 && status < 300 && status !== 204 && status !== 205) {
    // The caller's signal stays attached: it is what ends the stream.
    return { status, headers, stream: bodyStream(answer, stopListening) };
  }
  const read = await readBody(
    answer,
    request.maxBytes ?? DEFAULT_MAX_BYTES,
  ).catch(() => undefined);
  stopListening();
  if (read && 'corrupt' in read)
    return { status, headers, malformed: read.corrupt };
  return {
    status,
    headers,
    ...(read && 'bytes' in read
      ? parseBody(read.bytes)
      : { malformed: 'a body that could not be read' }),
  };
}
