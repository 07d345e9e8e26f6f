import { failure, GitlabEnvFailure } from '../errors';

/** What an upstream answered, body parsed as JSON when it was JSON. */
export interface UpstreamResponse {
  status: number;
  headers: Headers;
  body: unknown;
  /** True when the body was not JSON (or was cut short). */
  malformed: boolean;
}

export interface UpstreamRequest {
  url: string;
  method?: 'GET' | 'POST' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Which upstream, for messages: "GitLab" or "KAS". */
  upstream: string;
  /** Extra attempts for idempotent reads on 5xx, resets and timeouts. */
  retries?: number;
  /** Statuses worth another attempt; 4xx never are. */
  retryStatuses?: number[];
  /** False: a timed-out attempt is not repeated (default true). */
  retryTimeouts?: boolean;
  /** Maps a connection failure (refused, reset) to a failure. */
  onConnectionError?: (cause: unknown) => GitlabEnvFailure;
}

const DEFAULT_RETRY_STATUSES = [500, 502, 503, 504];
const BACKOFF_BASE_MS = 100;

function sleep(ms: number) {
  return new Promise(resolve => setTimeout(resolve, ms));
}

/** Exponential back-off with full jitter, so retries of many callers spread out. */
function backoff(retry: number): number {
  return Math.random() * BACKOFF_BASE_MS * 2 ** retry;
}

function isTimeout(error: unknown): boolean {
  const name = (error as Error | undefined)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

async function attempt(request: UpstreamRequest): Promise<UpstreamResponse> {
  const signal = AbortSignal.timeout(request.timeoutMs);
  let response: Response;
  let text: string;
  try {
    response = await fetch(request.url, {
      method: request.method ?? 'GET',
      headers: request.headers,
      body: request.body,
      signal,
      redirect: 'manual',
    });
    text = await response.text();
  } catch (error) {
    if (isTimeout(error)) {
      throw failure(
        'UPSTREAM_TIMEOUT',
        `${request.upstream} did not answer within ${request.timeoutMs} ms.`,
        {
          hint: 'Try again later; if it persists, check the instance or raise gitlabEnv.requestTimeoutMs.',
        },
      );
    }
    if (request.onConnectionError) throw request.onConnectionError(error);
    throw failure(
      'UPSTREAM_ERROR',
      `The connection to ${request.upstream} failed.`,
    );
  }
  let body: unknown = undefined;
  let malformed = false;
  if (text.length > 0) {
    try {
      body = JSON.parse(text);
    } catch {
      malformed = true;
    }
  }
  return {
    status: response.status,
    headers: response.headers,
    body,
    malformed,
  };
}

function retryable(error: unknown, request: UpstreamRequest): boolean {
  if (!(error instanceof GitlabEnvFailure)) return false;
  if (error.detail.code === 'UPSTREAM_TIMEOUT')
    return request.retryTimeouts !== false;
  return error.detail.code === 'UPSTREAM_ERROR';
}

/**
 * One upstream call with a timeout on every attempt; retries reads that
 * failed in a way another attempt may fix (5xx, reset, timeout).
 * Never throws anything but GitlabEnvFailure, whose messages carry no URL
 * credentials or tokens.
 */
export async function requestUpstream(
  request: UpstreamRequest,
): Promise<UpstreamResponse> {
  const retries = request.retries ?? 2;
  const statuses = request.retryStatuses ?? DEFAULT_RETRY_STATUSES;
  for (let n = 0; ; n++) {
    try {
      const response = await attempt(request);
      if (n < retries && statuses.includes(response.status)) {
        await sleep(backoff(n));
        continue;
      }
      return response;
    } catch (error) {
      if (n < retries && retryable(error, request)) {
        await sleep(backoff(n));
        continue;
      }
      throw error;
    }
  }
}
