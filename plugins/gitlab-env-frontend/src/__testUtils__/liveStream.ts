import { HttpResponse, http } from 'msw';
import {
  driftedCount,
  EnvironmentDrift,
  environmentDrift,
  EnvironmentResourcesResponse,
  EnvironmentTree,
  KubernetesObject,
  LiveEnvironmentKey,
  LiveResourceGraph,
  LiveTree,
  LiveTreeMessage,
  TREE_FORMAT_VERSION,
  WatchEvent,
  environmentTree,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { shopResources } from './fixtures';
import { BASE_URL } from './renderTab';

/** One response of the live route that a test writes events into. */
export interface TestLiveStream {
  response: HttpResponse<any>;
  /**
   * Sends a message as the backend does: event name = type, id = sequence
   * (`null`: no id, as before every environment had its snapshot).
   */
  send(message: LiveTreeMessage, id?: string | null): void;
  /** Sends raw bytes (comments, partial lines). */
  write(text: string): void;
  close(): void;
  /** The request that opened it. */
  request: Request;
}

let sequence = 0;

export function openLiveStream(request: Request): TestLiveStream {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      closed = true;
    },
  });
  request.signal.addEventListener('abort', () => {
    closed = true;
  });
  const write = (text: string) => {
    if (!closed) controller.enqueue(encoder.encode(text));
  };
  return {
    request,
    response: new HttpResponse(body, {
      headers: { 'content-type': 'text/event-stream' },
    }),
    write,
    send(message, id = String(++sequence)) {
      write(
        `${id === null ? '' : `id: ${id}\n`}event: ${
          message.type
        }\ndata: ${JSON.stringify(message)}\n\n`,
      );
    },
    close() {
      if (closed) return;
      closed = true;
      controller.close();
    },
  };
}

/** The live route, opening a test stream per request into `streams`. */
export function liveRoute(streams: TestLiveStream[]) {
  return http.get(`${BASE_URL}/live`, ({ request }) => {
    const stream = openLiveStream(request);
    streams.push(stream);
    return stream.response;
  });
}

/**
 * An environment as the backend's engine holds it: snapshots and patches
 * come from the real `LiveResourceGraph` and `LiveTree`, so the page is
 * tested against what the backend sends.
 */
export class EngineEnvironment {
  readonly engine: LiveResourceGraph;
  readonly key: LiveEnvironmentKey;
  private readonly live: LiveTree;

  constructor(
    private readonly base: EnvironmentResourcesResponse,
    slug = base.environment.slug,
  ) {
    this.engine = new LiveResourceGraph(base.resources);
    this.key = { entityRef: base.entityRef, slug };
    this.live = new LiveTree(this.resources());
  }

  snapshot(fetchedAt = new Date().toISOString()): LiveTreeMessage {
    return {
      type: 'snapshot',
      key: this.key,
      tree: this.live.snapshot(this.resources(fetchedAt)),
    };
  }

  /** The tree the page should hold now: the engine's, of the state. */
  expected(fetchedAt?: string): EnvironmentTree {
    return environmentTree(this.resources(fetchedAt));
  }

  /** The drift of the engine's state, as the backend computes it once per state. */
  drift(): EnvironmentDrift {
    return environmentDrift(this.engine.objects(), this.engine.graph());
  }

  /** A read of the engine's state, with its drift and count as the backend's read carries them. */
  resources(
    fetchedAt = new Date().toISOString(),
  ): EnvironmentResourcesResponse {
    const { drift: _, ...base } = this.base;
    const { driftedCount: __, ...environment } = base.environment;
    const drift = this.drift();
    const drifted = driftedCount(drift);
    return {
      ...base,
      environment:
        drifted > 0 ? { ...environment, driftedCount: drifted } : environment,
      resources: this.engine.objects(),
      graph: this.engine.graph(),
      health: this.engine.health(),
      fetchedAt,
      ...(drifted > 0 && { drift }),
    };
  }

  patch(
    events: WatchEvent | WatchEvent[],
    dataAt = new Date().toISOString(),
  ): LiveTreeMessage {
    return {
      type: 'patch',
      key: this.key,
      // Nothing drawn changed: the backend sends nothing; tests send an empty patch.
      patch: this.live.apply(this.engine.apply(events), this.drift()) ?? {
        v: TREE_FORMAT_VERSION,
      },
      dataAt,
    };
  }

  object(kind: string, name: string): KubernetesObject {
    return this.engine
      .objects()
      .find(o => o.kind === kind && o.metadata?.name === name)!;
  }
}

/** A copy of a Pod whose container crash-loops. */
export function crashLooping(pod: KubernetesObject): KubernetesObject {
  return {
    ...pod,
    metadata: { ...pod.metadata, resourceVersion: `${Date.now()}` },
    status: {
      phase: 'Running',
      containerStatuses: [
        {
          name: 'app',
          ready: false,
          restartCount: 5,
          state: { waiting: { reason: 'CrashLoopBackOff' } },
        },
      ],
    },
  };
}

/** A new healthy Pod of a ReplicaSet, as scaling up creates. */
export function podOf(replicaSet: KubernetesObject, name: string) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: replicaSet.metadata?.namespace,
      uid: `uid-Pod-${name}`,
      resourceVersion: '1',
      labels: replicaSet.metadata?.labels,
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: replicaSet.metadata?.name,
          uid: replicaSet.metadata?.uid,
          controller: true,
        },
      ],
    },
    spec: { restartPolicy: 'Always', containers: [{ name: 'app' }] },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: [{ name: 'app', ready: true, restartCount: 0 }],
    },
  } as KubernetesObject;
}

/**
 * The shop's production as a cluster holds it (owner references, labels),
 * for the engine to build: Deployment web, its ReplicaSet and two Pods,
 * behind a Service.
 */
export function liveShopResources(): EnvironmentResourcesResponse {
  const base = shopResources();
  const meta = (kind: string, name: string, extra: object = {}) => ({
    name,
    namespace: 'shop',
    uid: `uid-${kind}-${name}`,
    resourceVersion: '1',
    creationTimestamp: new Date(Date.now() - 3_600_000).toISOString(),
    labels: { app: 'web' },
    ...extra,
  });
  const deployment: KubernetesObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta('Deployment', 'web'),
    spec: { replicas: 2, selector: { matchLabels: { app: 'web' } } },
    status: {
      replicas: 2,
      readyReplicas: 2,
      updatedReplicas: 2,
      availableReplicas: 2,
      observedGeneration: 1,
    },
  };
  const replicaSet: KubernetesObject = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: meta('ReplicaSet', 'web-5d8f', {
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: 'web',
          uid: 'uid-Deployment-web',
          controller: true,
        },
      ],
    }),
    spec: { replicas: 2 },
    status: { replicas: 2, readyReplicas: 2, availableReplicas: 2 },
  };
  const service: KubernetesObject = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta('Service', 'web'),
    spec: { selector: { app: 'web' }, ports: [{ port: 80 }] },
  };
  const resources = [
    deployment,
    replicaSet,
    podOf(replicaSet, 'web-5d8f-a'),
    podOf(replicaSet, 'web-5d8f-b'),
    service,
  ];
  return { ...base, resources };
}
