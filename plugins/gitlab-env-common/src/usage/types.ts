/**
 * One resource (CPU in cores, memory in bytes) of a container, a pod or a
 * workload: what it uses now against what it requests and may use.
 *
 * @public
 */
export interface ResourceFigures {
  /** Now, from metrics.k8s.io (memory: the working set); absent without metrics. */
  usage?: number;
  /** The sum of the containers' requests that are set. */
  request?: number;
  /** The sum of the containers' limits that are set. */
  limit?: number;
  /** A container uses more than its limit (CPU: it is throttled; memory: it is near an OOM kill). */
  overLimit: boolean;
  /** A container sets no request: the scheduler reserves nothing for it. */
  requestMissing: boolean;
}

/** @public */
export interface UsageFigures {
  cpu: ResourceFigures;
  memory: ResourceFigures;
}

/** @public */
export interface ContainerUsage extends UsageFigures {
  name: string;
}

/** The workload a pod belongs to (a ReplicaSet's Deployment, a Job's CronJob). @public */
export interface WorkloadRef {
  kind: string;
  namespace: string;
  name: string;
}

/** @public */
export interface PodUsage extends UsageFigures {
  namespace: string;
  name: string;
  workload?: WorkloadRef;
  containers: ContainerUsage[];
  /** Whether metrics.k8s.io had this pod (a pod not running, or younger than a sample, has none). */
  measured: boolean;
}

/** @public */
export interface WorkloadUsage extends UsageFigures, WorkloadRef {
  pods: number;
  /** Pods of the workload metrics.k8s.io had. */
  measuredPods: number;
}

/** A PodMetrics object of metrics.k8s.io/v1beta1 (types.go), as untrusted JSON. @public */
export interface PodMetricsObject {
  metadata?: { name?: string; namespace?: string };
  timestamp?: string;
  window?: string;
  containers?: Array<{
    name?: string;
    usage?: { cpu?: string; memory?: string };
  }>;
}

/** One point of a trend: CPU in cores and memory in bytes at a time. @public */
export interface UsagePoint {
  at: string;
  cpu?: number;
  memory?: number;
}

/**
 * How a pod's or a workload's usage moved: sampled by the backend while
 * the page is open, or from the cluster's Prometheus (with the queries).
 *
 * @public
 */
export interface UsageTrend {
  source: 'sampled' | 'prometheus';
  stepSeconds: number;
  points: UsagePoint[];
  /** The PromQL asked, for a person to run it again (source `prometheus`). */
  queries?: { cpu: string; memory: string };
  /** Where the Prometheus was found: `<namespace>/<service>:<port>`. */
  prometheus?: string;
}

/**
 * Whether the cluster serves metrics.k8s.io; when not, why, said once for
 * the environment.
 *
 * @public
 */
export type MetricsAvailability =
  | { available: true; window?: string; timestamp?: string }
  | { available: false; reason: string };

/** `GET …/environments/:slug/usage`. @public */
export interface EnvironmentUsageResponse {
  metrics: MetricsAvailability;
  /** The command that shows the same figures. */
  kubectl: string;
  pods: PodUsage[];
  workloads: WorkloadUsage[];
  /** For the pod or workload asked with `pod=` or `workload=`. */
  trend?: UsageTrend;
  /** A Prometheus was found in the cluster; trends over hours come from it. */
  prometheus?: { service: string; error?: string };
  /** When the backend sampled last; the page asks again after `intervalSeconds`. */
  sampledAt?: string;
  intervalSeconds: number;
}
