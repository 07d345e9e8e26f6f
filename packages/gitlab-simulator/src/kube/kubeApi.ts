import { Controllers } from '../cluster/controllers';
import { ApiResource } from '../cluster/resources';
import { ClusterStore } from '../cluster/store';
import { ClusterKnobs } from '../clusterKnobs';

// What the API server's handlers (apiServer, access, watch, writes) share, in
// a module of its own so the handlers do not import the server that calls them.

/**
 * A kube-apiserver over a ClusterStore: discovery, get/list/watch with
 * selectors and pagination, logs, delete, patch, scale and create.
 */
export interface KubeApi {
  store: ClusterStore;
  controllers: Controllers;
  kubernetesVersion: string;
  /**
   * The cluster's RBAC: may agentk's service account touch this resource
   * (in this namespace; undefined is across all namespaces)?
   */
  isForbidden(
    resource: ApiResource,
    subresource: string | undefined,
    namespace: string | undefined,
    verb: string,
  ): boolean;
  /** Open watches and followed logs, for the knobs that cut or expire them. */
  watches: Set<ActiveWatch>;
  knobs(): ClusterKnobs;
  /** Keeps a long-lived response closable when the simulator shuts down. */
  trackStream(stop: () => void): () => void;
  logFollowIntervalMs: number;
  /** Is metrics-server installed and answering (the scenario and the `metricsApi` knob)? */
  metricsApi(): boolean;
}

/** An open watch the simulator can cut or expire (the `dropStreams`/`expireWatches` knobs). */
export interface ActiveWatch {
  /** Ends the stream: `abrupt` destroys the socket mid-stream, as a dropped tunnel does. */
  drop(abrupt: boolean): void;
  /** Sends the 410 ERROR event an etcd compaction gives an open watch, then ends. */
  expire(): void;
}
