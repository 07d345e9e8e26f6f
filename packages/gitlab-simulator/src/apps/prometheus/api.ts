import { ServerResponse } from 'http';
import { sendBody, sendJson } from '../../http/respond';
import {
  ExecutionError,
  instantQuery,
  Point,
  rangeQuery,
  ScrapedCluster,
} from './evaluate';
import { parseDuration, parsePromql, PromqlError } from './promql';

/**
 * Prometheus's HTTP API as a kube-prometheus-stack Prometheus answers it
 * (https://prometheus.io/docs/prometheus/latest/querying/api/): instant
 * `/api/v1/query` and range `/api/v1/query_range` (GET, or POST with a form
 * body), `/api/v1/status/buildinfo`, `/-/ready`, `/-/healthy`. Answers are
 * `{"status":"success","data":{"resultType","result"}}`; bad parameters and
 * queries outside the evaluated subset are 400
 * `{"status":"error","errorType":"bad_data","error"}`, and a query too large
 * to run is 422 `errorType: execution`.
 */

export const PROMETHEUS_VERSION = '2.54.1';
/** `exceeded maximum resolution of 11,000 points per timeseries` (web/api/v1/api.go). */
const MAX_POINTS = 11_000;

function badData(res: ServerResponse, error: string) {
  sendJson(res, 400, { status: 'error', errorType: 'bad_data', error });
}

/** `parseTime`: Unix seconds (fractions allowed) or RFC 3339. */
function parseTime(value: string | null, fallback: number): number | undefined {
  if (value === null || value === '') return fallback;
  if (/^-?\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const parsed = Date.parse(value);
  return /^\d{4}-\d{2}-\d{2}T/.test(value) && Number.isFinite(parsed)
    ? parsed
    : undefined;
}

/** `parseDuration` of the API: seconds (fractions allowed) or a Prometheus duration. */
function parseStep(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  return parseDuration(value);
}

/** A sample value as Prometheus writes it (Go `strconv.FormatFloat(v, 'f', -1, 64)`). */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  const text = String(value);
  const exponent = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!exponent) return text;
  const [, sign, head, tail = '', power] = exponent;
  const digits = head + tail;
  const point = 1 + Number(power);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  return `${sign}${digits.padEnd(point, '0')}`;
}

const seconds = (ms: number) => ms / 1000;

function vector(points: Point[], timeMs: number) {
  return points.map(p => ({
    metric: p.labels,
    value: [seconds(timeMs), formatValue(p.value)],
  }));
}

/** Handles a request to the Prometheus server; `path` starts with `/`. */
export function handlePrometheus(
  res: ServerResponse,
  method: string,
  path: string,
  params: URLSearchParams,
  cluster: () => ScrapedCluster,
) {
  if (path === '/-/ready' || path === '/-/healthy') {
    sendBody(
      res,
      200,
      `Prometheus Server is ${path === '/-/ready' ? 'Ready' : 'Healthy'}.\n`,
      {
        'Content-Type': 'text/plain; charset=utf-8',
      },
    );
    return;
  }
  if (path === '/api/v1/status/buildinfo') {
    sendJson(res, 200, {
      status: 'success',
      data: {
        version: PROMETHEUS_VERSION,
        revision: 'simulated',
        branch: 'HEAD',
        buildUser: 'root@simulator',
        buildDate: '20240826-08:47:39',
        goVersion: 'go1.22.6',
      },
    });
    return;
  }
  if (path !== '/api/v1/query' && path !== '/api/v1/query_range') {
    sendBody(res, 404, '404 page not found\n', {
      'Content-Type': 'text/plain; charset=utf-8',
    });
    return;
  }
  if (method !== 'GET' && method !== 'POST') {
    sendBody(res, 405, 'Method Not Allowed\n', {
      'Content-Type': 'text/plain; charset=utf-8',
    });
    return;
  }
  try {
    const now = Date.now();
    const expr = parsePromql(params.get('query') ?? '');
    if (path === '/api/v1/query') {
      const time = parseTime(params.get('time'), now);
      if (time === undefined) {
        badData(
          res,
          `invalid parameter "time": cannot parse ${JSON.stringify(
            params.get('time'),
          )} to a valid timestamp`,
        );
        return;
      }
      sendJson(res, 200, {
        status: 'success',
        data: {
          resultType: 'vector',
          result: vector(instantQuery(expr, time, cluster()), time),
        },
      });
      return;
    }
    const start = parseTime(params.get('start'), NaN);
    const end = parseTime(params.get('end'), NaN);
    for (const [name, value] of [
      ['start', start],
      ['end', end],
    ] as const) {
      if (value === undefined || Number.isNaN(value)) {
        badData(
          res,
          `invalid parameter "${name}": cannot parse ${JSON.stringify(
            params.get(name) ?? '',
          )} to a valid timestamp`,
        );
        return;
      }
    }
    if (end! < start!) {
      badData(
        res,
        'invalid parameter "end": end timestamp must not be before start time',
      );
      return;
    }
    const step = parseStep(params.get('step'));
    if (step === undefined) {
      badData(
        res,
        `invalid parameter "step": cannot parse ${JSON.stringify(
          params.get('step') ?? '',
        )} to a valid duration`,
      );
      return;
    }
    if (step <= 0) {
      badData(
        res,
        'zero or negative query resolution step widths are not accepted. Try a positive integer',
      );
      return;
    }
    if ((end! - start!) / step > MAX_POINTS) {
      badData(
        res,
        'exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)',
      );
      return;
    }
    sendJson(res, 200, {
      status: 'success',
      data: {
        resultType: 'matrix',
        result: rangeQuery(expr, start!, end!, step, cluster()).map(s => ({
          metric: s.labels,
          values: s.values.map(([t, v]) => [seconds(t), formatValue(v)]),
        })),
      },
    });
  } catch (error) {
    if (error instanceof PromqlError) {
      badData(res, error.message);
    } else if (error instanceof ExecutionError) {
      sendJson(res, 422, {
        status: 'error',
        errorType: 'execution',
        error: error.message,
      });
    } else {
      throw error;
    }
  }
}
