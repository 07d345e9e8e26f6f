import { ServerResponse } from 'http';
import { KubeObject } from '../scenario/types';
import { stableHex, stableNumber } from '../cluster/ids';
import { badRequest, KubeStatus } from './status';

/** Pod logs: deterministic, plausible application output per container. */

const HISTORY_LINES = 200;
const LINE_SPACING_MS = 7000;

const ROUTES = [
  '/healthz',
  '/api/v1/items',
  '/api/v1/cart',
  '/metrics',
  '/api/v1/orders',
  '/readyz',
];

function appLine(seed: string, i: number): string {
  const n = stableNumber(`${seed}/${i}`, 1000);
  const route = ROUTES[n % ROUTES.length];
  let status = n % 13 === 0 ? 404 : 200;
  if (n % 47 === 0) status = 500;
  const level = status === 500 ? 'error' : 'info';
  return `level=${level} msg="request handled" method=GET path=${route} status=${status} duration=${
    (n % 90) / 10 + 0.4
  }ms request_id=${stableHex(`${seed}/${i}`, 12)}`;
}

const CRASH_TAIL = [
  'level=info msg="starting server" version=2.7.1',
  'level=info msg="loading configuration" file=/etc/app/config.yaml',
  'level=error msg="failed to connect to database" err="dial tcp 10.96.40.12:5432: connect: connection refused" attempt=3',
  'level=fatal msg="giving up: database unreachable"',
];

export interface LogRequest {
  pod: KubeObject;
  container: string;
  previous: boolean;
  now: Date;
}

function containerState(pod: KubeObject, container: string) {
  return (pod.status?.containerStatuses ?? []).find(
    (c: any) => c.name === container,
  );
}

function isCrashLooping(pod: KubeObject, container: string) {
  return (
    containerState(pod, container)?.state?.waiting?.reason ===
    'CrashLoopBackOff'
  );
}

/** The log lines the container has written, oldest first, with their times. */
export function logHistory(
  request: LogRequest,
): Array<{ at: Date; text: string }> {
  const { pod, container, now } = request;
  const seed = `${pod.metadata.uid}/${container}/${
    request.previous ? 'previous' : 'current'
  }`;
  if (isCrashLooping(pod, container)) {
    return CRASH_TAIL.map((text, i) => ({
      at: new Date(now.getTime() - (CRASH_TAIL.length - i) * 900 - 92e3),
      text,
    }));
  }
  const started = new Date(pod.metadata.creationTimestamp ?? now).getTime();
  const count = Math.max(
    1,
    Math.min(
      HISTORY_LINES,
      Math.floor((now.getTime() - started) / LINE_SPACING_MS),
    ),
  );
  return Array.from({ length: count }, (_, i) => ({
    at: new Date(now.getTime() - (count - i) * LINE_SPACING_MS),
    text:
      i === 0
        ? `level=info msg="server listening" addr=:8080 container=${container}`
        : appLine(seed, i),
  }));
}

/** Why the API server refuses a log request, if it does (container choice, state, previous). */
export function logRequestError(
  pod: KubeObject,
  container: string | undefined,
  previous: boolean,
): KubeStatus | string {
  const names: string[] = (pod.spec?.containers ?? []).map((c: any) => c.name);
  const name = container ?? (names.length === 1 ? names[0] : undefined);
  if (!name) {
    return badRequest(
      `a container name must be specified for pod ${
        pod.metadata.name
      }, choose one of: [${names.join(' ')}]`,
    );
  }
  if (!names.includes(name)) {
    return badRequest(
      `container ${name} is not valid for pod ${pod.metadata.name}`,
    );
  }
  const state = containerState(pod, name);
  const waiting = state?.state?.waiting;
  if (previous && !(state?.restartCount > 0)) {
    return badRequest(
      `previous terminated container "${name}" in pod "${pod.metadata.name}" not found`,
    );
  }
  if (!previous && waiting && waiting.reason !== 'CrashLoopBackOff') {
    return badRequest(
      `container "${name}" in pod "${pod.metadata.name}" is waiting to start: ${waiting.reason}`,
    );
  }
  return name;
}

export interface LogStreamOptions {
  tailLines?: number;
  timestamps: boolean;
  follow: boolean;
  /** Interval between new lines while following. */
  followIntervalMs: number;
  /** Resolves true while the pod still exists (follow ends when it is deleted). */
  podExists: () => boolean;
  onClose: (stop: () => void) => void;
}

function format(line: { at: Date; text: string }, timestamps: boolean) {
  return `${
    timestamps ? `${line.at.toISOString().replace('Z', '000000Z')} ` : ''
  }${line.text}\n`;
}

export function streamLogs(
  res: ServerResponse,
  request: LogRequest,
  options: LogStreamOptions,
) {
  let lines = logHistory(request);
  if (options.tailLines !== undefined) {
    lines = options.tailLines <= 0 ? [] : lines.slice(-options.tailLines);
  }
  const running =
    containerState(request.pod, request.container)?.state?.running !==
    undefined;
  const text = lines.map(l => format(l, options.timestamps)).join('');
  if (!options.follow || !running || request.previous) {
    res.writeHead(200, {
      'Content-Type': 'text/plain',
      'Content-Length': Buffer.byteLength(text),
    });
    res.end(text);
    return;
  }
  res.writeHead(200, {
    'Content-Type': 'text/plain',
    'Transfer-Encoding': 'chunked',
  });
  res.write(text);
  let i = lines.length;
  const seed = `${request.pod.metadata.uid}/${request.container}/follow`;
  const timer = setInterval(() => {
    if (!options.podExists()) {
      stop();
      return;
    }
    res.write(
      format({ at: new Date(), text: appLine(seed, i++) }, options.timestamps),
    );
  }, options.followIntervalMs);
  function stop() {
    clearInterval(timer);
    if (!res.writableEnded) res.end();
  }
  res.on('close', () => clearInterval(timer));
  options.onClose(stop);
}
