import { ServerResponse } from 'http';
import { KubeObject } from '../scenario/types';
import { stableHex, stableNumber } from '../cluster/ids';
import { badRequest, failure, KubeStatus } from './status';

/** Pod logs: deterministic, plausible application output per container. */

const HISTORY_LINES = 200;
/** The shortest timer period while following; faster rates write several lines per tick. */
const FOLLOW_TICK_MS = 10;
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
  return [
    ...(pod.status?.containerStatuses ?? []),
    ...(pod.status?.initContainerStatuses ?? []),
    ...(pod.status?.ephemeralContainerStatuses ?? []),
  ].find((c: any) => c.name === container);
}

/** Names of a pod's containers by kind: the log endpoint serves all three. */
function containerNames(pod: KubeObject) {
  const names = (list: any[] | undefined) => (list ?? []).map(c => c.name);
  return {
    main: names(pod.spec?.containers) as string[],
    init: names(pod.spec?.initContainers) as string[],
    ephemeral: names(pod.spec?.ephemeralContainers) as string[],
  };
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
  const kinds = containerNames(pod);
  const names = [...kinds.main, ...kinds.init, ...kinds.ephemeral];
  const name =
    container ?? (kinds.main.length === 1 ? kinds.main[0] : undefined);
  if (!name) {
    // pkg/registry/core/pod/strategy.go LogLocation
    let message = `a container name must be specified for pod ${
      pod.metadata.name
    }, choose one of: [${kinds.main.join(' ')}]`;
    if (kinds.init.length)
      message += ` or one of the init containers: [${kinds.init.join(' ')}]`;
    if (kinds.ephemeral.length)
      message += ` or one of the ephemeral containers: [${kinds.ephemeral.join(
        ' ',
      )}]`;
    return badRequest(message);
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
  /** Only lines written at or after this time (`sinceSeconds`/`sinceTime`). */
  since?: Date;
  /** Stop after this many bytes (`limitBytes`). */
  limitBytes?: number;
  timestamps: boolean;
  follow: boolean;
  /** Interval between new lines while following (may be below 1 ms: 0.5 = 2,000 lines/s). */
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
  if (options.since) {
    const since = options.since.getTime();
    lines = lines.filter(l => l.at.getTime() >= since);
  }
  if (options.tailLines !== undefined) {
    lines = options.tailLines <= 0 ? [] : lines.slice(-options.tailLines);
  }
  const running =
    containerState(request.pod, request.container)?.state?.running !==
    undefined;
  let text = lines.map(l => format(l, options.timestamps)).join('');
  let budget = options.limitBytes ?? Infinity;
  if (Buffer.byteLength(text) >= budget) {
    text = Buffer.from(text).subarray(0, budget).toString('utf8');
    budget = 0;
  } else {
    budget -= Buffer.byteLength(text);
  }
  if (!options.follow || !running || request.previous || budget === 0) {
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
  // Lines are due by elapsed time, so intervals under a timer tick (1,000+ lines/s for benchmarks) still hold.
  const started = Date.now();
  let written = 0;
  const timer = setInterval(() => {
    if (!options.podExists()) {
      stop();
      return;
    }
    const due = Math.floor((Date.now() - started) / options.followIntervalMs);
    let chunk = '';
    for (; written < due && budget > 0; written++) {
      let line = format(
        { at: new Date(), text: appLine(seed, i++) },
        options.timestamps,
      );
      if (Buffer.byteLength(line) >= budget) {
        line = Buffer.from(line).subarray(0, budget).toString('utf8');
        budget = 0;
      } else {
        budget -= Buffer.byteLength(line);
      }
      chunk += line;
    }
    if (chunk) res.write(chunk);
    if (budget === 0) stop();
  }, Math.max(options.followIntervalMs, FOLLOW_TICK_MS));
  function stop() {
    clearInterval(timer);
    if (!res.writableEnded) res.end();
  }
  res.on('close', () => clearInterval(timer));
  options.onClose(stop);
}

function invalidLogOptions(field: string, detail: string): KubeStatus {
  return failure(422, `PodLogOptions "" is invalid: ${field}: ${detail}`, {
    kind: 'PodLogOptions',
    causes: [{ reason: 'FieldValueInvalid', message: detail, field }],
  });
}

/**
 * The query of a log request, validated like ValidatePodLogOptions
 * (`pkg/apis/core/validation/validation.go`): non-negative tailLines, positive
 * limitBytes and sinceSeconds, at most one of sinceSeconds and sinceTime.
 */
export function logOptions(
  query: URLSearchParams,
): Pick<LogStreamOptions, 'tailLines' | 'since' | 'limitBytes'> | KubeStatus {
  const integer = (key: string) => {
    const value = query.get(key);
    if (value === null) return undefined;
    if (!/^-?\d+$/.test(value)) return NaN;
    return Number(value);
  };
  const tailLines = integer('tailLines');
  const limitBytes = integer('limitBytes');
  const sinceSeconds = integer('sinceSeconds');
  const sinceTime = query.get('sinceTime');
  for (const [key, value] of Object.entries({
    tailLines,
    limitBytes,
    sinceSeconds,
  })) {
    if (Number.isNaN(value))
      return badRequest(
        `${key}: invalid value "${query.get(
          key,
        )}": strconv.ParseInt: parsing "${query.get(key)}": invalid syntax`,
      );
  }
  if (tailLines !== undefined && tailLines < 0)
    return invalidLogOptions(
      'tailLines',
      `Invalid value: ${tailLines}: must be greater than or equal to 0`,
    );
  if (limitBytes !== undefined && limitBytes < 1)
    return invalidLogOptions(
      'limitBytes',
      `Invalid value: ${limitBytes}: must be greater than 0`,
    );
  if (sinceSeconds !== undefined && sinceTime !== null)
    return invalidLogOptions(
      'sinceSeconds',
      'Forbidden: at most one of sinceTime or sinceSeconds may be specified',
    );
  if (sinceSeconds !== undefined && sinceSeconds < 1)
    return invalidLogOptions(
      'sinceSeconds',
      `Invalid value: ${sinceSeconds}: must be greater than 0`,
    );
  let since: Date | undefined;
  if (sinceSeconds !== undefined)
    since = new Date(Date.now() - sinceSeconds * 1000);
  if (sinceTime !== null) {
    since = new Date(sinceTime);
    if (
      Number.isNaN(since.getTime()) ||
      !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(
        sinceTime,
      )
    )
      return badRequest(
        `sinceTime: parsing time "${sinceTime}" as "2006-01-02T15:04:05Z07:00": cannot parse`,
      );
  }
  return { tailLines, limitBytes, since };
}
