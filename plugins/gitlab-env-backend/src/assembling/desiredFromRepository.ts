import {
  DesiredStateComparison,
  diffManifests,
  fluxSourceKeyOf,
  groupOfApiVersion,
  KubernetesObject,
  objectsByNodeId,
  parseFluxResourcePath,
  planKustomization,
  resourceId,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { parseAllDocuments, parse } from 'yaml';
import { MAX_ALIAS_COUNT } from '../transport/gitlabRest';
import { isProjectPath } from '../validation/gitlabPaths';
import { normalizeObject } from '../reading/objects';

/** Reads stop here: a deploy directory is a handful of small files. */
const MAX_FILES = 50;
const MAX_DOCUMENTS = 500;
const COMMIT = /^[0-9a-f]{7,64}$/;

/** Kinds that are cluster-scoped in every cluster (CRDs' scope is read from the objects). */
const CLUSTER_SCOPED = new Set([
  '/Namespace',
  '/PersistentVolume',
  '/Node',
  'rbac.authorization.k8s.io/ClusterRole',
  'rbac.authorization.k8s.io/ClusterRoleBinding',
  'apiextensions.k8s.io/CustomResourceDefinition',
  'storage.k8s.io/StorageClass',
  'scheduling.k8s.io/PriorityClass',
  'networking.k8s.io/IngressClass',
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration',
]);

/** Reads one repository file at a ref; undefined when the file does not exist. */
export type RepositoryFileReader = (
  project: string,
  path: string,
  ref: string,
) => Promise<string | undefined>;

const unavailable = (reason: string): DesiredStateComparison => ({
  unavailable: reason,
  notRendered: [],
  objects: [],
});

/**
 * The GitLab project of a GitRepository URL on this instance's host:
 * `https://<host>/<path>(.git)` or `ssh://git@<host>/<path>.git`;
 * undefined for other hosts or paths that are not project paths.
 */
export function projectOfUrl(url: unknown, host: string): string | undefined {
  if (typeof url !== 'string') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (!['https:', 'http:', 'ssh:'].includes(parsed.protocol)) return undefined;
  if (parsed.hostname.toLowerCase() !== host.toLowerCase()) return undefined;
  const path = decodeURIComponent(parsed.pathname)
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/, '');
  return isProjectPath(path) ? path : undefined;
}

/** The commit Flux applied: `<ref>@sha1:<commit>` (Flux 2.x), `<branch>/<commit>` (older). */
export function appliedCommit(revision: unknown): string | undefined {
  if (typeof revision !== 'string') return undefined;
  const commit = revision.includes('@')
    ? revision.slice(revision.lastIndexOf(':') + 1)
    : revision.slice(revision.lastIndexOf('/') + 1);
  return COMMIT.test(commit) ? commit : undefined;
}

/** A Kustomization's `spec.path` as a repository directory; undefined when it leaves the repository. */
export function directoryOf(path: unknown): string | undefined {
  const text = typeof path === 'string' ? path : './';
  const parts = text.split('/').filter(p => p && p !== '.');
  if (parts.some(p => p === '..')) return undefined;
  return parts.join('/');
}

/**
 * The manifests a Flux Kustomization applies, read from its GitRepository's
 * GitLab project at the applied commit, against the live objects. Says
 * plainly, instead, why there is no comparison: a HelmRelease (the chart is
 * rendered with its values by helm-controller), a source that is not a
 * GitLab project of this instance, a directory without kustomization.yaml,
 * and names what kustomize would transform.
 */
export async function compareWithRepository(options: {
  objects: readonly KubernetesObject[];
  fluxResourcePath?: string;
  host: string;
  /**
   * Why this project's repository may not be read for the environment
   * (see repositoryRefusal); undefined when it may. Asked before any read.
   */
  mayRead: (project: string) => string | undefined;
  readFile: RepositoryFileReader;
  /** Read the manifests at this commit instead of the applied one (a merge request's head). */
  ref?: string;
}): Promise<DesiredStateComparison | undefined> {
  const path = options.fluxResourcePath
    ? parseFluxResourcePath(options.fluxResourcePath)
    : undefined;
  if (!path) return undefined;
  const byId = objectsByNodeId(options.objects);
  const root = byId.get(
    resourceId({
      group: path.group,
      kind: path.kind,
      namespace: path.namespace,
      name: path.name,
    }),
  );
  if (!root)
    return unavailable(
      `The ${path.kind} ${path.namespace}/${path.name} was not read.`,
    );
  if (root.kind === 'HelmRelease')
    return unavailable(
      'A HelmRelease is rendered by helm-controller from the chart and its values in the cluster; the repository holds no plain manifests to compare, so Helm values and templates are not compared here (use the drift signals).',
    );
  const sourceKey = fluxSourceKeyOf(root);
  const source = sourceKey && byId.get(resourceId(sourceKey));
  if (!sourceKey || !source)
    return unavailable("The Kustomization's source was not read.");
  if (source.kind !== 'GitRepository')
    return unavailable(
      `The source is a ${source.kind}: its artifact is not readable through the GitLab API.`,
    );
  const project = projectOfUrl(source.spec?.url, options.host);
  if (!project)
    return unavailable(
      `The GitRepository's URL is not a project of ${options.host}: the backend reads repositories only through this GitLab's API.`,
    );
  const refused = options.mayRead(project);
  if (refused) return unavailable(refused);
  if (options.ref !== undefined && !COMMIT.test(options.ref))
    return unavailable(`${options.ref} is not a commit id.`);
  const ref = options.ref ?? appliedCommit(root.status?.lastAppliedRevision);
  if (!ref)
    return unavailable('The Kustomization has applied no revision yet.');
  const directory = directoryOf(root.spec?.path);
  if (directory === undefined)
    return unavailable("The Kustomization's path leaves the repository.");
  const at = (file: string) => (directory ? `${directory}/${file}` : file);
  const text =
    (await options.readFile(project, at('kustomization.yaml'), ref)) ??
    (await options.readFile(project, at('kustomization.yml'), ref));
  const comparison: DesiredStateComparison = {
    source: { project, ref, path: directory || '.' },
    notRendered: [],
    objects: [],
  };
  if (text === undefined) {
    comparison.unavailable = `${at(
      'kustomization.yaml',
    )} does not exist: Flux then applies every manifest under the directory, which the repository files API cannot list.`;
    return comparison;
  }
  let kustomization: unknown;
  try {
    kustomization = parse(text, { maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    comparison.unavailable = `${at(
      'kustomization.yaml',
    )} cannot be read: ${String((error as Error)?.message ?? error)}`;
    return comparison;
  }
  const plan = planKustomization(kustomization, directory);
  comparison.notRendered = plan.notRendered;
  if (plan.files.length > MAX_FILES)
    comparison.notRendered.push(
      `${plan.files.length - MAX_FILES} files past the first ${MAX_FILES}`,
    );
  const manifests: Array<{ file: string; object: KubernetesObject }> = [];
  for (const file of plan.files.slice(0, MAX_FILES)) {
    const content = await options.readFile(project, file, ref);
    if (content === undefined) {
      comparison.notRendered.push(`${file} (not found at ${ref})`);
      continue;
    }
    for (const document of parseAllDocuments(content)) {
      if (manifests.length >= MAX_DOCUMENTS) break;
      let value: any;
      try {
        value =
          document.errors.length === 0
            ? document.toJS({ maxAliasCount: MAX_ALIAS_COUNT })
            : undefined;
      } catch {
        comparison.notRendered.push(
          `a document of ${file} whose YAML aliases expand more than ${MAX_ALIAS_COUNT} times`,
        );
        continue;
      }
      // Secrets in the repository read as the cluster's do: keys, no values.
      const object =
        value && typeof value === 'object'
          ? normalizeObject(value, {
              apiVersion: String(value.apiVersion),
              kind: String(value.kind),
            })
          : undefined;
      if (object) manifests.push({ file, object });
      else
        comparison.notRendered.push(
          `a document of ${file} that is not a Kubernetes object`,
        );
    }
  }
  const liveClusterScoped = new Set(
    options.objects
      .filter(o => !o.metadata?.namespace)
      .map(o => `${groupOfApiVersion(o.apiVersion)}/${o.kind}`),
  );
  comparison.objects = diffManifests(manifests, byId, {
    targetNamespace:
      typeof root.spec?.targetNamespace === 'string'
        ? root.spec.targetNamespace
        : undefined,
    clusterScoped: (group, kind) =>
      CLUSTER_SCOPED.has(`${group}/${kind}`) ||
      liveClusterScoped.has(`${group}/${kind}`),
  });
  return comparison;
}
