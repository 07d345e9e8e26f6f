import {
  KubernetesObject,
  NamespaceCreator,
  StaleNamespace,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { asGitlabEnvError } from '../errors';
import { KasClient } from '../transport/kasClient';

/** What is counted in a namespace, namespace-scoped list paths. */
const CONTENT_KINDS: Array<[kind: string, path: string]> = [
  ['Deployment', '/apis/apps/v1/namespaces/{ns}/deployments'],
  ['StatefulSet', '/apis/apps/v1/namespaces/{ns}/statefulsets'],
  ['DaemonSet', '/apis/apps/v1/namespaces/{ns}/daemonsets'],
  ['Pod', '/api/v1/namespaces/{ns}/pods'],
  ['Job', '/apis/batch/v1/namespaces/{ns}/jobs'],
  ['CronJob', '/apis/batch/v1/namespaces/{ns}/cronjobs'],
  ['Service', '/api/v1/namespaces/{ns}/services'],
  ['ConfigMap', '/api/v1/namespaces/{ns}/configmaps'],
  ['PersistentVolumeClaim', '/api/v1/namespaces/{ns}/persistentvolumeclaims'],
  ['ServiceAccount', '/api/v1/namespaces/{ns}/serviceaccounts'],
];
const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet']);

function items(list: unknown): KubernetesObject[] {
  const value = (list as { items?: unknown } | undefined)?.items;
  return Array.isArray(value) ? (value as KubernetesObject[]) : [];
}

function readyReplicas(object: KubernetesObject): number {
  const status = (object as { status?: Record<string, unknown> }).status ?? {};
  const ready = status.readyReplicas ?? status.numberReady ?? 0;
  return typeof ready === 'number' ? ready : 0;
}

/** Counts by kind and what still runs; kinds that fail to list are named, not guessed. */
export async function readNamespaceContents(
  kas: KasClient,
  namespace: string,
): Promise<StaleNamespace['contents']> {
  const counts: Record<string, number> = {};
  const uncounted: string[] = [];
  let runningPods = 0;
  let runningWorkloads = 0;
  await Promise.all(
    CONTENT_KINDS.map(async ([kind, template]) => {
      try {
        const list = await kas.get(
          template.replace('{ns}', encodeURIComponent(namespace)),
          kind,
        );
        const objects = items(list);
        if (objects.length > 0) counts[kind] = objects.length;
        if (kind === 'Pod') {
          runningPods = objects.filter(
            p =>
              (p as { status?: { phase?: string } }).status?.phase ===
              'Running',
          ).length;
        }
        if (WORKLOADS.has(kind)) {
          runningWorkloads += objects.filter(o => readyReplicas(o) > 0).length;
        }
      } catch (error) {
        uncounted.push(`${kind} (${asGitlabEnvError(error).code})`);
      }
    }),
  );
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  return {
    counts,
    total,
    runningPods,
    runningWorkloads,
    uncounted: uncounted.sort(),
  };
}

/** Who created a namespace, read from the marks each tool leaves on it. */
export function namespaceCreator(
  namespace: KubernetesObject,
): NamespaceCreator {
  const labels = namespace.metadata?.labels ?? {};
  const annotations = namespace.metadata?.annotations ?? {};
  const keys = Object.keys(labels);
  if (keys.some(k => k.startsWith('agent.gitlab.com/')))
    return 'gitlab_managed_resources';
  if (
    keys.some(
      k =>
        k.startsWith('kustomize.toolkit.fluxcd.io/') ||
        k.startsWith('helm.toolkit.fluxcd.io/'),
    )
  ) {
    return 'flux';
  }
  if (
    labels['app.kubernetes.io/managed-by'] === 'Helm' ||
    annotations['meta.helm.sh/release-name']
  ) {
    return 'helm';
  }
  if (
    annotations['kubectl.kubernetes.io/last-applied-configuration'] !==
    undefined
  )
    return 'kubectl';
  return 'unknown';
}
