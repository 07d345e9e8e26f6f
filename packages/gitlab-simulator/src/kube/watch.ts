import { IncomingMessage, ServerResponse } from 'http';
import { KubeObject } from '../scenario/types';
import { apiVersionOf } from '../cluster/resources';
import { parseFieldSelector, parseLabelSelector } from '../cluster/selectors';
import { StoreEvent } from '../cluster/store';
import type { ActiveWatch, KubeApi } from './kubeApi';
import { badRequest, failure, KubeStatus, sendStatus } from './status';
import { Target } from './target';

/**
 * `?watch=1` as kube-apiserver serves it. Behaviour and messages follow
 * https://kubernetes.io/docs/reference/using-api/api-concepts/ ("Efficient
 * detection of changes", "Watch bookmarks", "Resource versions", "Streaming
 * lists") and `staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go`.
 */

/** minRequestTimeout: a watch without `timeoutSeconds` lasts at least this long. */
const DEFAULT_WATCH_TIMEOUT_S = 1800;
/** The watch cache waits this long for a future resourceVersion before answering 504 (cacher `waitUntilFreshAndBlock`). */
const TOO_LARGE_WAIT_MS = 3000;
const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

/** Turns a watched object into what the client asked for (the object, or a Table). */
export type WatchRenderer = (object: KubeObject, first: boolean) => unknown;

/**
 * Encoded events shared by every watcher that renders them the same way (the
 * apiserver's cacher also encodes an event once per format,
 * `runtime.CacheableObject`), so many watchers cost one serialization.
 */
const encoded = new WeakMap<KubeObject, Map<string, string>>();

function encodeOnce(
  type: string,
  object: KubeObject,
  format: string,
  render: () => unknown,
): string {
  let byFormat = encoded.get(object);
  if (!byFormat) {
    byFormat = new Map();
    encoded.set(object, byFormat);
  }
  const key = `${type} ${format}`;
  let line = byFormat.get(key);
  if (line === undefined) {
    line = `${JSON.stringify({ type, object: render() })}\n`;
    byFormat.set(key, line);
  }
  return line;
}

export function expiredStatus(message: string): KubeStatus {
  return failure(410, message, undefined, 'Expired');
}

function invalidListOptions(field: string, detail: string): KubeStatus {
  return failure(
    422,
    `ListOptions.meta.k8s.io "" is invalid: ${field}: Forbidden: ${detail}`,
    {
      group: 'meta.k8s.io',
      kind: 'ListOptions',
      causes: [
        {
          reason: 'FieldValueForbidden',
          message: `Forbidden: ${detail}`,
          field,
        },
      ],
    },
  );
}

/** ValidateListOptions (apimachinery `pkg/apis/meta/internalversion/validation`) for watches. */
function validateWatchOptions(query: URLSearchParams): KubeStatus | undefined {
  const sendInitialEvents = query.get('sendInitialEvents');
  const match = query.get('resourceVersionMatch');
  if (sendInitialEvents !== null) {
    if (query.get('allowWatchBookmarks') !== 'true')
      return invalidListOptions(
        'allowWatchBookmarks',
        'sendInitialEvents requires setting allowWatchBookmarks to true',
      );
    if (match !== 'NotOlderThan')
      return invalidListOptions(
        'resourceVersionMatch',
        'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
      );
  } else if (match) {
    return invalidListOptions(
      'resourceVersionMatch',
      'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
    );
  }
  const rv = query.get('resourceVersion');
  if (rv && !/^\d+$/.test(rv))
    return badRequest(`invalid resource version: ${rv}`);
  const timeout = query.get('timeoutSeconds');
  if (timeout !== null && !/^\d+$/.test(timeout))
    return badRequest(
      `timeoutSeconds: Invalid value: "${timeout}": must be a non-negative integer`,
    );
  return undefined;
}

export function tooLargeResourceVersion(
  requested: number,
  current: string,
): KubeStatus {
  return failure(
    504,
    `Timeout: Too large resource version: ${requested}, current: ${current}`,
    {
      causes: [
        {
          reason: 'ResourceVersionTooLarge',
          message: 'Too large resource version',
        },
      ],
      retryAfterSeconds: 1,
    },
  );
}

export async function waitForRevision(api: KubeApi, revision: number) {
  const deadline = Date.now() + TOO_LARGE_WAIT_MS;
  while (Number(api.store.resourceVersion) < revision && Date.now() < deadline)
    await new Promise(resolve => setTimeout(resolve, 50));
  return Number(api.store.resourceVersion) >= revision;
}

export async function handleWatch(
  api: KubeApi,
  req: IncomingMessage,
  res: ServerResponse,
  target: Target,
  query: URLSearchParams,
  render: WatchRenderer,
  /** Watchers with the same format share encoded events; undefined when every event is rendered anew (Tables). */
  format?: string,
) {
  const invalid = validateWatchOptions(query);
  if (invalid) {
    sendStatus(res, invalid);
    return;
  }
  const labels = parseLabelSelector(query.get('labelSelector'));
  const fields = parseFieldSelector(
    query.get('fieldSelector'),
    target.resource,
  );
  const matches = (o: KubeObject | undefined) =>
    !!o &&
    (target.namespace === undefined ||
      o.metadata.namespace === target.namespace) &&
    labels(o) &&
    fields(o);
  const since = query.get('resourceVersion') ?? '';
  const sendInitialEvents =
    query.get('sendInitialEvents') === 'true' || since === '' || since === '0';
  const from = Number(since || 0);
  if (from > 0 && !(await waitForRevision(api, from))) {
    sendStatus(res, tooLargeResourceVersion(from, api.store.resourceVersion));
    return;
  }
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Transfer-Encoding': 'chunked',
    'Cache-Control': 'no-cache, private',
  });
  // Headers go out at once, like kube-apiserver, even before the first event.
  res.flushHeaders();
  let first = true;
  const send = (type: string, object: unknown) =>
    res.write(`${JSON.stringify({ type, object })}\n`);
  const write = (type: string, object: KubeObject) => {
    if (format !== undefined) {
      res.write(encodeOnce(type, object, format, () => render(object, first)));
    } else {
      send(type, render(object, first));
    }
    first = false;
  };
  const bookmark = (annotations?: Record<string, string>) =>
    send('BOOKMARK', {
      kind: target.resource.kind,
      apiVersion: apiVersionOf(target.resource.group, target.version),
      metadata: {
        resourceVersion: api.store.resourceVersion,
        ...(annotations ? { annotations } : {}),
      },
    });
  const deliver = (event: StoreEvent) => {
    if (event.resource !== target.resource) return;
    const now = matches(event.object);
    const before = event.type === 'MODIFIED' ? matches(event.previous) : now;
    if (event.type === 'MODIFIED' && now !== before) {
      // An object entering or leaving the selection looks like a create or delete to the watcher;
      // a delete carries the last state that matched, at the event's version (cacher `convertToWatchEvent`).
      if (now) {
        write('ADDED', event.object);
      } else {
        const previous = event.previous!;
        write('DELETED', {
          ...previous,
          metadata: {
            ...previous.metadata,
            resourceVersion: event.object.metadata.resourceVersion,
          },
        });
      }
    } else if (now) {
      write(event.type, event.object);
    }
  };

  const timers: NodeJS.Timeout[] = [];
  let unsubscribe = () => {};
  const watch: ActiveWatch = {
    drop(abrupt) {
      if (abrupt) res.destroy();
      stop();
    },
    expire() {
      send(
        'ERROR',
        expiredStatus('The resourceVersion for the provided watch is too old.'),
      );
      stop();
    },
  };
  const untrack = api.trackStream(() => stop());
  api.watches.add(watch);
  function stop() {
    timers.forEach(clearTimeout);
    unsubscribe();
    untrack();
    api.watches.delete(watch);
    if (!res.writableEnded) res.end();
  }
  req.on('close', stop);
  res.on('close', stop);

  if (sendInitialEvents) {
    api.store
      .list(target.resource, target.namespace)
      .filter(matches)
      .forEach(o => write('ADDED', o));
    if (query.get('sendInitialEvents') === 'true') {
      // Streaming lists mark the end of the initial state with an annotated bookmark.
      bookmark({ [INITIAL_EVENTS_END]: 'true' });
    }
  } else {
    const changes = api.store.changesSince(from);
    if (!changes) {
      // The cacher's answer for a version older than its window, as an ERROR event on a 200 stream
      // (`cacher.go` Watch: newErrWatcher; `watch_cache.go`: "too old resource version: %d (%d)", rv, oldest-1).
      send(
        'ERROR',
        expiredStatus(
          `too old resource version: ${from} (${api.store.compacted})`,
        ),
      );
      stop();
      return;
    }
    changes.forEach(deliver);
  }
  unsubscribe = api.store.subscribe(deliver);
  // 0 or unset: the server's own limit (`handlers/get.go`: minRequestTimeout, randomised up to twice that).
  const timeout =
    Number(query.get('timeoutSeconds') ?? 0) || DEFAULT_WATCH_TIMEOUT_S;
  timers.push(setTimeout(() => stop(), timeout * 1000));
  if (query.get('allowWatchBookmarks') === 'true') {
    const interval = api.knobs().bookmarkIntervalMs;
    if (interval > 0) timers.push(setInterval(() => bookmark(), interval));
    // cacheWatcher.nextBookmarkTime: one more "right before" the deadline, 2 s ahead of it.
    if (timeout > 2)
      timers.push(setTimeout(() => bookmark(), (timeout - 2) * 1000));
  }
}
