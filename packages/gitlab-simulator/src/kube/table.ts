import { KubeObject } from '../scenario/types';
import { ApiResource } from '../cluster/resources';
import { selectorString } from '../cluster/objects';

/**
 * Server-side printing (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`,
 * https://kubernetes.io/docs/reference/using-api/api-concepts/#receiving-resources-as-tables):
 * the columns kube-apiserver's printers give kubectl
 * (`pkg/printers/internalversion/printers.go`), and the default convertor's
 * `Name`/`Created At` for everything else
 * (`staging/src/k8s.io/apiserver/pkg/registry/rest/table.go`).
 */

export const TABLE_MEDIA_TYPE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

interface Column {
  name: string;
  type: string;
  format?: string;
  description: string;
  /** 0: always shown; 1: only with `-o wide`. */
  priority: number;
  cell(o: KubeObject, now: Date): string | number | boolean | null;
}

/** Does the Accept header ask for a meta.k8s.io/v1 Table before anything else? */
export function wantsTable(accept: string | undefined): boolean {
  for (const entry of (accept ?? '').split(',')) {
    const [type, ...params] = entry.split(';').map(p => p.trim());
    const values = new Map(
      params.map(p => p.split('=').map(s => s.trim()) as [string, string]),
    );
    if (values.get('as') === 'Table') {
      if (
        (type === 'application/json' || type === '*/*') &&
        values.get('v') === 'v1' &&
        values.get('g') === 'meta.k8s.io'
      )
        return true;
      continue;
    }
    if (type === 'application/json' || type === '*/*' || type === '') {
      return false;
    }
  }
  return false;
}

/** apimachinery `duration.HumanDuration`: what the AGE column shows. */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0
      ? `${Math.floor(hours / 24)}d`
      : `${Math.floor(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const days = Math.floor(hours / 24) % 365;
    return `${Math.floor(hours / 24 / 365)}y${days}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}

const since = (time: string | undefined, now: Date) =>
  time ? humanDuration(now.getTime() - new Date(time).getTime()) : '<unknown>';

const name: Column = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description:
    'Name must be unique within a namespace. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
  priority: 0,
  cell: o => o.metadata.name,
};

const age: Column = {
  name: 'Age',
  type: 'string',
  description:
    'CreationTimestamp is a timestamp representing the server time when this object was created.',
  priority: 0,
  cell: (o, now) => since(o.metadata.creationTimestamp, now),
};

function column(
  columnName: string,
  cell: Column['cell'],
  priority = 0,
  type = 'string',
  description = '',
): Column {
  return { name: columnName, type, description, priority, cell };
}

const none = (value: unknown) =>
  value === undefined || value === null || value === ''
    ? '<none>'
    : String(value);

const containers = (template: any) => template?.spec?.containers ?? [];
const containerColumns = (templateOf: (o: KubeObject) => any) => [
  column(
    'Containers',
    o =>
      containers(templateOf(o))
        .map((c: any) => c.name)
        .join(','),
    1,
  ),
  column(
    'Images',
    o =>
      containers(templateOf(o))
        .map((c: any) => c.image)
        .join(','),
    1,
  ),
];
const selectorColumn = column(
  'Selector',
  o => none(selectorString(o.spec?.selector?.matchLabels)),
  1,
);

/** printPod: READY, STATUS (the reason kubectl shows), RESTARTS with the last one's age. */
function podStatusReason(pod: KubeObject): string {
  let reason: string = pod.status?.reason || pod.status?.phase || 'Unknown';
  const initStatuses: any[] = pod.status?.initContainerStatuses ?? [];
  const initCount = (pod.spec?.initContainers ?? []).length;
  let initializing = false;
  initStatuses.forEach((c, i) => {
    if (initializing) return;
    const terminated = c.state?.terminated;
    if (terminated && terminated.exitCode === 0) return;
    initializing = true;
    if (terminated) {
      reason = `Init:${terminated.reason || `ExitCode:${terminated.exitCode}`}`;
    } else if (
      c.state?.waiting?.reason &&
      c.state.waiting.reason !== 'PodInitializing'
    ) {
      reason = `Init:${c.state.waiting.reason}`;
    } else {
      reason = `Init:${i}/${initCount}`;
    }
  });
  if (!initializing) {
    let hasRunning = false;
    const statuses: any[] = pod.status?.containerStatuses ?? [];
    for (const c of [...statuses].reverse()) {
      if (c.state?.waiting?.reason) reason = c.state.waiting.reason;
      else if (c.state?.terminated?.reason) reason = c.state.terminated.reason;
      else if (c.state?.terminated)
        reason = c.state.terminated.signal
          ? `Signal:${c.state.terminated.signal}`
          : `ExitCode:${c.state.terminated.exitCode}`;
      else if (c.ready && c.state?.running) hasRunning = true;
    }
    if (reason === 'Completed' && hasRunning) {
      const ready = (pod.status?.conditions ?? []).some(
        (c: any) => c.type === 'Ready' && c.status === 'True',
      );
      reason = ready ? 'Running' : 'NotReady';
    }
  }
  if (pod.metadata.deletionTimestamp) {
    reason = pod.status?.reason === 'NodeLost' ? 'Unknown' : 'Terminating';
  }
  return reason;
}

function podRestarts(pod: KubeObject, now: Date): string {
  const statuses: any[] = pod.status?.containerStatuses ?? [];
  const restarts = statuses.reduce((n, c) => n + (c.restartCount ?? 0), 0);
  const last = statuses
    .map(c => c.lastState?.terminated?.finishedAt)
    .filter(Boolean)
    .sort()
    .pop();
  return last && restarts > 0
    ? `${restarts} (${since(last, now)} ago)`
    : String(restarts);
}

const POD_COLUMNS: Column[] = [
  name,
  column(
    'Ready',
    o => {
      const statuses: any[] = o.status?.containerStatuses ?? [];
      const total = (o.spec?.containers ?? []).length;
      return `${statuses.filter(c => c.ready).length}/${total}`;
    },
    0,
    'string',
    'The aggregate readiness state of this pod for accepting traffic.',
  ),
  column(
    'Status',
    podStatusReason,
    0,
    'string',
    'The aggregate status of the containers in this pod.',
  ),
  column(
    'Restarts',
    podRestarts,
    0,
    'string',
    'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
  ),
  age,
  column(
    'IP',
    o => none(o.status?.podIP),
    1,
    'string',
    'IP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.',
  ),
  column(
    'Node',
    o => none(o.spec?.nodeName),
    1,
    'string',
    'NodeName is a request to schedule this pod onto a specific node.',
  ),
  column('Nominated Node', o => none(o.status?.nominatedNodeName), 1),
  column(
    'Readiness Gates',
    o =>
      none(
        (o.spec?.readinessGates ?? []).length
          ? (o.spec.readinessGates as any[]).map(g => g.conditionType).join(',')
          : undefined,
      ),
    1,
  ),
];

const template = (o: KubeObject) => o.spec?.template;
const n = (value: unknown) => Number(value ?? 0);

const COLUMNS: Record<string, Column[]> = {
  '/pods': POD_COLUMNS,
  'apps/deployments': [
    name,
    column(
      'Ready',
      o => `${n(o.status?.readyReplicas)}/${n(o.spec?.replicas ?? 1)}`,
    ),
    column('Up-to-date', o => n(o.status?.updatedReplicas), 0, 'integer'),
    column('Available', o => n(o.status?.availableReplicas), 0, 'integer'),
    age,
    ...containerColumns(template),
    selectorColumn,
  ],
  'apps/replicasets': [
    name,
    column('Desired', o => n(o.spec?.replicas ?? 1), 0, 'integer'),
    column('Current', o => n(o.status?.replicas), 0, 'integer'),
    column('Ready', o => n(o.status?.readyReplicas), 0, 'integer'),
    age,
    ...containerColumns(template),
    selectorColumn,
  ],
  'apps/statefulsets': [
    name,
    column(
      'Ready',
      o => `${n(o.status?.readyReplicas)}/${n(o.spec?.replicas ?? 1)}`,
    ),
    age,
    ...containerColumns(template),
  ],
  'apps/daemonsets': [
    name,
    column('Desired', o => n(o.status?.desiredNumberScheduled), 0, 'integer'),
    column('Current', o => n(o.status?.currentNumberScheduled), 0, 'integer'),
    column('Ready', o => n(o.status?.numberReady), 0, 'integer'),
    column(
      'Up-to-date',
      o => n(o.status?.updatedNumberScheduled),
      0,
      'integer',
    ),
    column('Available', o => n(o.status?.numberAvailable), 0, 'integer'),
    column('Node Selector', o =>
      none(selectorString(o.spec?.template?.spec?.nodeSelector)),
    ),
    age,
    ...containerColumns(template),
    selectorColumn,
  ],
  '/events': [
    column('Last Seen', (o, now) =>
      since(
        o.lastTimestamp ?? o.eventTime ?? o.metadata.creationTimestamp,
        now,
      ),
    ),
    column('Type', o => o.type ?? ''),
    column('Reason', o => o.reason ?? ''),
    column(
      'Object',
      o =>
        `${String(o.involvedObject?.kind ?? '').toLowerCase()}/${
          o.involvedObject?.name ?? ''
        }`,
    ),
    column('Subobject', o => o.involvedObject?.fieldPath ?? '', 1),
    column(
      'Source',
      o =>
        [o.source?.component, o.source?.host].filter(Boolean).join(', ') ||
        (o.reportingComponent ?? ''),
      1,
    ),
    column('Message', o => String(o.message ?? '').trim()),
    column(
      'First Seen',
      (o, now) => since(o.firstTimestamp ?? o.eventTime, now),
      1,
    ),
    column('Count', o => String(o.count ?? 1), 1),
    column('Name', o => o.metadata.name, 1),
  ],
  '/namespaces': [
    name,
    column('Status', o => o.status?.phase ?? 'Active'),
    age,
  ],
  '/configmaps': [
    name,
    column(
      'Data',
      o =>
        Object.keys(o.data ?? {}).length +
        Object.keys(o.binaryData ?? {}).length,
      0,
      'integer',
    ),
    age,
  ],
  '/services': [
    name,
    column('Type', o => o.spec?.type ?? 'ClusterIP'),
    column('Cluster-IP', o => none(o.spec?.clusterIP)),
    column('External-IP', o => {
      const ingress: any[] = o.status?.loadBalancer?.ingress ?? [];
      if (ingress.length) return ingress.map(i => i.ip ?? i.hostname).join(',');
      return o.spec?.type === 'LoadBalancer' ? '<pending>' : '<none>';
    }),
    column('Port(s)', o =>
      none(
        (o.spec?.ports ?? [])
          .map(
            (p: any) =>
              `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${
                p.protocol ?? 'TCP'
              }`,
          )
          .join(','),
      ),
    ),
    age,
    column('Selector', o => none(selectorString(o.spec?.selector)), 1),
  ],
};

/** DefaultTableConvertor, used for resources without a printer (and custom resources without printer columns). */
const DEFAULT_COLUMNS: Column[] = [
  name,
  {
    name: 'Created At',
    type: 'date',
    description:
      'CreationTimestamp is a timestamp representing the server time when this object was created.',
    priority: 0,
    cell: o => o.metadata.creationTimestamp ?? '',
  },
];

/**
 * A printer column's JSONPath, in the subset CRDs use: `.a.b`, `[n]` and
 * `[?(@.key=="value")]` filters (first match).
 */
export function evaluateJsonPath(object: unknown, path: string): unknown {
  const steps =
    path.match(/\.[^.[\]]+|\[\?\(@\.[^=]+==\s*"[^"]*"\)\]|\[\d+\]/g) ?? [];
  let current: any = object;
  for (const step of steps) {
    if (current === undefined || current === null) return undefined;
    const filter = /^\[\?\(@\.([^=]+?)==\s*"([^"]*)"\)\]$/.exec(step);
    if (filter) {
      current = Array.isArray(current)
        ? current.find(item => String(item?.[filter[1]]) === filter[2])
        : undefined;
    } else if (step.startsWith('[')) {
      current = current[Number(step.slice(1, -1))];
    } else {
      current = current[step.slice(1)];
    }
  }
  return current;
}

function customColumns(resource: ApiResource): Column[] | undefined {
  if (!resource.printerColumns) return undefined;
  return [
    name,
    ...resource.printerColumns.map(c => ({
      name: c.name,
      type: c.type,
      format: c.format,
      description: c.description ?? '',
      priority: c.priority ?? 0,
      cell: (o: KubeObject) => {
        const value = evaluateJsonPath(o, c.jsonPath);
        if (value === undefined || value === null) return null as any;
        return typeof value === 'object'
          ? JSON.stringify(value)
          : (value as any);
      },
    })),
  ];
}

function columnsFor(resource: ApiResource): Column[] {
  return (
    COLUMNS[`${resource.group}/${resource.plural}`] ??
    customColumns(resource) ??
    DEFAULT_COLUMNS
  );
}

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export function includeObjectOf(
  value: string | null,
): IncludeObject | undefined {
  if (value === null || value === '') return 'Metadata';
  return value === 'None' || value === 'Metadata' || value === 'Object'
    ? value
    : undefined;
}

function rowObject(o: KubeObject, include: IncludeObject) {
  if (include === 'None') return undefined;
  if (include === 'Object') return o;
  return {
    kind: 'PartialObjectMetadata',
    apiVersion: 'meta.k8s.io/v1',
    metadata: o.metadata,
  };
}

export function toTable(
  resource: ApiResource,
  objects: KubeObject[],
  options: {
    include: IncludeObject;
    /** Watch events after the first omit the column definitions (`handlers/watch.go`). */
    noHeaders?: boolean;
    listMetadata?: Record<string, unknown>;
  },
) {
  const columns = columnsFor(resource);
  const now = new Date();
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: options.listMetadata ?? {},
    columnDefinitions: options.noHeaders
      ? null
      : columns.map(c => ({
          name: c.name,
          type: c.type,
          format: c.format ?? '',
          description: c.description,
          priority: c.priority,
        })),
    rows: objects.map(o => {
      const object = rowObject(o, options.include);
      return {
        cells: columns.map(c => c.cell(o, now)),
        ...(object ? { object } : {}),
      };
    }),
  };
}
