import { Readable } from 'stream';
import { pipeline } from 'stream/promises';
import { LoggerService } from '@backstage/backend-plugin-api';
import {
  GitlabAgentRef,
  LOG_TAIL_CAPPED_HEADER,
  KubernetesObject,
  PodLogsQuery,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import express from 'express';
import { failure } from '../errors';
import { UpstreamResponse } from '../transport/http';
import { KasClient } from '../transport/kasClient';
import { isDns1123Label, isPathSegmentName, quote } from '../validation';
import { statusMessage } from '../validation/json';
import { refusalOf } from './clusterAnswer';
import { pathOf } from './targets';

export interface LogLimits {
  /** The tail asked of the cluster when the browser asks none or more. */
  maxTailLines: number;
  /** A log read that does not follow stops after this many bytes (the API server's limitBytes). */
  maxBytes: number;
}

function invalid(what: string, value: unknown, rule: string) {
  return failure(
    'INVALID_REQUEST',
    `The log request's ${what} ${quote(value)} is not ${rule}.`,
    { hint: 'Open the logs again from the pod’s drawer.' },
  );
}

function single(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function positive(name: string, value: unknown): number | undefined {
  const text = single(value);
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < 1)
    throw invalid(name, value, 'a whole number above 0');
  return n;
}

function flag(name: string, value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw invalid(name, value, 'true or false');
}

/** The query of the logs route, every value checked: it comes from the browser. */
export function readLogsQuery(query: Record<string, unknown>): PodLogsQuery {
  const pod = single(query.pod);
  if (!isPathSegmentName(pod)) throw invalid('pod', query.pod, 'a pod name');
  const container = single(query.container);
  if (container !== undefined && !isDns1123Label(container))
    throw invalid('container', container, 'a container name');
  const namespace = single(query.namespace);
  if (namespace !== undefined && !isDns1123Label(namespace))
    throw invalid('namespace', namespace, 'a namespace name');
  return {
    pod,
    container,
    namespace,
    tailLines: positive('tailLines', query.tailLines),
    sinceSeconds: positive('sinceSeconds', query.sinceSeconds),
    previous: flag('previous', query.previous),
    timestamps: flag('timestamps', query.timestamps),
    follow: flag('follow', query.follow),
  };
}

function containerNames(pod: KubernetesObject): string[] {
  const spec = pod.spec ?? {};
  return ['containers', 'initContainers', 'ephemeralContainers'].flatMap(
    field =>
      Array.isArray(spec[field])
        ? spec[field]
            .map((c: any) => c?.name)
            .filter((n: unknown): n is string => typeof n === 'string')
        : [],
  );
}

/**
 * The container to read: the one asked for, which must be one of the
 * pod's (regular, init or ephemeral); else the one kubectl picks, the
 * `kubectl.kubernetes.io/default-container` annotation or the first.
 */
export function containerToRead(
  pod: KubernetesObject,
  asked: string | undefined,
): string | undefined {
  const names = containerNames(pod);
  if (asked !== undefined) {
    if (!names.includes(asked))
      throw failure(
        'LOGS_UNAVAILABLE',
        `Pod ${pod.metadata?.name} has no container ${quote(asked)}.`,
        { hint: `Choose one of: ${names.join(', ') || '(none listed)'}.` },
      );
    return asked;
  }
  const annotated =
    pod.metadata?.annotations?.['kubectl.kubernetes.io/default-container'];
  if (annotated && names.includes(annotated)) return annotated;
  return pod.spec?.containers?.[0]?.name ?? names[0];
}

/** The Kubernetes log path and the tail applied, `capped` when the backend chose it. */
export function logRequest(
  pod: KubernetesObject,
  query: PodLogsQuery,
  limits: LogLimits,
) {
  const container = containerToRead(pod, query.container);
  const capped =
    query.tailLines === undefined || query.tailLines > limits.maxTailLines;
  const tailLines = capped ? limits.maxTailLines : query.tailLines!;
  const params = new URLSearchParams();
  if (container) params.set('container', container);
  params.set('tailLines', String(tailLines));
  // A followed log is bounded by time (maxFollowMs) instead: nothing is
  // buffered, and a byte cap would end a busy container's stream early.
  if (!query.follow) params.set('limitBytes', String(limits.maxBytes));
  if (query.sinceSeconds)
    params.set('sinceSeconds', String(query.sinceSeconds));
  if (query.previous) params.set('previous', 'true');
  if (query.timestamps) params.set('timestamps', 'true');
  if (query.follow) params.set('follow', 'true');
  const path = `${pathOf({
    apiVersion: 'v1',
    kind: 'Pod',
    namespace: pod.metadata!.namespace!,
    name: pod.metadata!.name!,
  })}/log?${params}`;
  return { path, container, tailLines, capped };
}

/** What a refused log read means: a 400 is the container's state, not the request. */
function logRefusal(
  refused: UpstreamResponse,
  what: string,
  agent: GitlabAgentRef,
) {
  if (refused.status === 400) {
    const said = statusMessage(refused.body);
    return failure(
      'LOGS_UNAVAILABLE',
      `The cluster has no logs to show for ${what}${said ? `: ${said}` : '.'}`,
      {
        upstreamStatus: 400,
        hint: 'The container may not have started yet, or has no previous instance; choose another container or turn off “previous”.',
      },
    );
  }
  return refusalOf(refused, `read the logs of ${what}`, agent);
}

/** Opens the log stream; a refusal throws typed. */
export async function openLogStream(
  kas: KasClient,
  agent: GitlabAgentRef,
  path: string,
  what: string,
): Promise<ReadableStream<Uint8Array>> {
  const opened = await kas.openStream(path, 'text/plain');
  if ('refused' in opened) throw logRefusal(opened.refused, what, agent);
  return opened.stream;
}

/**
 * Writes the log to the response as the API server sends it, chunk by
 * chunk (never the whole log in memory), until it ends or the request's
 * signal stops it (the browser left, the follow time ran out).
 */
export async function sendLogStream(
  res: express.Response,
  stream: ReadableStream<Uint8Array>,
  planned: { capped: boolean; tailLines: number },
  logger: LoggerService,
  what: string,
) {
  res.status(200);
  res.setHeader('content-type', 'text/plain; charset=utf-8');
  // no-transform keeps compression from holding back followed lines.
  res.setHeader('cache-control', 'no-store, no-transform');
  res.setHeader('x-content-type-options', 'nosniff');
  if (planned.capped)
    res.setHeader(LOG_TAIL_CAPPED_HEADER, String(planned.tailLines));
  res.flushHeaders();
  try {
    await pipeline(Readable.fromWeb(stream as any), res);
  } catch (error) {
    // The browser left, the follow time ran out, or the upstream broke
    // off: the lines sent stand; nothing more can be said.
    logger.debug(`Log stream of ${what} ended: ${error}`);
    if (!res.writableEnded) res.end();
  }
}
