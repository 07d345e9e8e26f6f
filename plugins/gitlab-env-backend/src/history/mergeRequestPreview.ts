import { Entity } from '@backstage/catalog-model';
import {
  DesiredStateComparison,
  fluxSourceKeyOf,
  GitlabEnvError,
  GitlabEnvironment,
  KubernetesObject,
  MergeRequestEnvironmentPreview,
  MergeRequestPreview,
  MergeRequestPreviewResponse,
  objectsByNodeId,
  parseFluxResourcePath,
  resourceId,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import pLimit from 'p-limit';
import { asGitlabEnvError } from '../errors';
import { CallOptions, GitlabEnvironmentsService } from '../facade';
import { directoryOf, projectOfUrl } from '../assembling/desiredFromRepository';
import {
  mergeRequestChangedPaths,
  openMergeRequests,
} from '../transport/gitlabRepository';
import { GitlabAccess } from './gitlabAccess';

/** Open merge requests looked at, most recently updated first. */
const MAX_MERGE_REQUESTS = 20;

/** A Flux environment whose manifests are in the entity's own project. */
interface AppliedDirectory {
  environment: GitlabEnvironment;
  fluxObject: string;
  /** Repository directory (`''` for the root). */
  directory: string;
  prune: boolean;
  objects: KubernetesObject[];
}

function underDirectory(file: string, directory: string): boolean {
  return directory === '' || file.startsWith(`${directory}/`);
}

function sameChanges(
  a: DesiredStateComparison['objects'][number] | undefined,
  b: DesiredStateComparison['objects'][number],
): boolean {
  return (
    !!a &&
    a.state === b.state &&
    JSON.stringify(a.changes) === JSON.stringify(b.changes)
  );
}

/**
 * What each open merge request of the entity's project would change in
 * the Flux environments that apply a directory it touches: the tab's
 * desired-vs-live comparison (compareWithRepository, the engine's
 * diffManifests) at the merge request's head, set against the same
 * comparison at the applied revision so drift already there is counted,
 * not blamed on the merge request. Manifests are read only from the
 * entity's own project.
 */
export class MergeRequestPreviews {
  constructor(
    private readonly service: GitlabEnvironmentsService,
    private readonly gitlab: GitlabAccess,
  ) {}

  async preview(
    entity: Entity,
    options: CallOptions = {},
  ): Promise<MergeRequestPreviewResponse> {
    const located = await this.service.locate(entity, options);
    const instance = this.gitlab.instance(located.host);
    const signal = this.service.callSignal(options);
    const rest = this.gitlab.rest(instance, signal);
    const project = located.project.fullPath;
    const errors: GitlabEnvError[] = [];
    const notes: MergeRequestEnvironmentPreview[] = [];
    const applied: AppliedDirectory[] = [];
    for (const environment of located.environments) {
      if (environment.state === 'stopped' || !environment.fluxResourcePath)
        continue;
      const found = await this.appliedDirectory(
        entity,
        environment,
        located.host,
        project,
        { ...options, located },
      ).catch(error => {
        errors.push(asGitlabEnvError(error));
        return undefined;
      });
      if (found && 'unavailable' in found) notes.push(found.unavailable);
      else if (found) applied.push(found);
    }
    const open = await openMergeRequests(
      rest,
      instance,
      project,
      MAX_MERGE_REQUESTS,
    );
    // No directory an environment applies: no merge request can touch one.
    if (applied.length === 0)
      return {
        mergeRequests: [],
        untouched: open.length,
        ...(errors.length > 0 && { errors }),
      };
    const limit = pLimit(2);
    let untouched = 0;
    const previews = await Promise.all(
      open.map(mr =>
        limit(async (): Promise<MergeRequestPreview | undefined> => {
          try {
            const paths = await this.gitlab.cached(
              instance,
              `mr-paths|${instance.host}|${project}|${mr.iid}|${mr.headSha}`,
              own => mergeRequestChangedPaths(own, instance, project, mr.iid),
              signal,
            );
            const reached = applied.filter(a =>
              paths.some(p => underDirectory(p, a.directory)),
            );
            if (reached.length === 0) {
              untouched += 1;
              return undefined;
            }
            return {
              iid: mr.iid,
              title: mr.title,
              webUrl: mr.webUrl,
              authorName: mr.authorName,
              headSha: mr.headSha,
              sourceBranch: mr.sourceBranch,
              targetBranch: mr.targetBranch,
              touchedFiles: paths.filter(p =>
                reached.some(a => underDirectory(p, a.directory)),
              ),
              environments: [
                ...(await Promise.all(
                  reached.map(a => this.atHead(a, located.host, mr.headSha)),
                )),
                ...notes,
              ],
            };
          } catch (error) {
            // One merge request GitLab cannot show (merged meanwhile, its
            // diff refused) leaves the others' previews.
            const failed = asGitlabEnvError(error);
            errors.push({
              ...failed,
              message: `Merge request !${mr.iid}: ${failed.message}`,
            });
            return undefined;
          }
        }),
      ),
    );
    return {
      mergeRequests: previews.filter((p): p is MergeRequestPreview => !!p),
      untouched,
      ...(errors.length > 0 && { errors }),
    };
  }

  /** The Kustomization's directory in the entity's project, or why there is none. */
  private async appliedDirectory(
    entity: Entity,
    environment: GitlabEnvironment,
    host: string,
    project: string,
    options: CallOptions,
  ): Promise<
    | AppliedDirectory
    | { unavailable: MergeRequestEnvironmentPreview }
    | undefined
  > {
    const path = parseFluxResourcePath(environment.fluxResourcePath!);
    if (!path) return undefined;
    const fluxObject = `${path.kind} ${path.namespace}/${path.name}`;
    const unavailable = (reason: string) => ({
      unavailable: {
        environment: { name: environment.name, slug: environment.slug },
        fluxObject,
        added: [],
        changed: [],
        removed: [],
        alreadyDrifted: 0,
        notCompared: [],
        unavailable: reason,
      },
    });
    if (path.kind === 'HelmRelease')
      return unavailable(
        'A HelmRelease is rendered by helm-controller from its chart and values in the cluster: a merge request changing Helm values or templates cannot be compared here.',
      );
    const read = await this.service.getEnvironmentResources(
      entity,
      environment.slug,
      options,
    );
    const byId = objectsByNodeId(read.resources);
    const root = byId.get(resourceId(path));
    const sourceKey = root && fluxSourceKeyOf(root);
    const source = sourceKey && byId.get(resourceId(sourceKey));
    if (!root || !source)
      return unavailable(`The ${fluxObject} or its source was not read.`);
    const sourceProject = projectOfUrl(source.spec?.url, host);
    if (sourceProject !== project)
      return unavailable(
        `${fluxObject} applies manifests of ${
          sourceProject ?? String(source.spec?.url)
        }, not of this entity's project ${project}: not read for it.`,
      );
    const directory = directoryOf(root.spec?.path);
    if (directory === undefined)
      return unavailable("The Kustomization's path leaves the repository.");
    return {
      environment,
      fluxObject,
      directory,
      prune: root.spec?.prune === true,
      objects: read.resources,
    };
  }

  private async atHead(
    applied: AppliedDirectory,
    host: string,
    headSha: string,
  ): Promise<MergeRequestEnvironmentPreview> {
    const target = { host, environment: applied.environment };
    const [deployed, head] = await Promise.all([
      this.service.desiredStateAt(target, applied.objects),
      this.service.desiredStateAt(target, applied.objects, headSha),
    ]);
    const preview: MergeRequestEnvironmentPreview = {
      environment: {
        name: applied.environment.name,
        slug: applied.environment.slug,
      },
      fluxObject: applied.fluxObject,
      path: applied.directory || '.',
      added: [],
      changed: [],
      removed: [],
      alreadyDrifted: 0,
      notCompared: head?.notRendered ?? [],
    };
    if (!head || head.unavailable) {
      preview.unavailable = head?.unavailable ?? 'Nothing to compare.';
      return preview;
    }
    const before = new Map((deployed?.objects ?? []).map(o => [o.id, o]));
    for (const object of head.objects) {
      const then = before.get(object.id);
      if (object.state === 'missing' && !then)
        preview.added.push({ id: object.id, file: object.file });
      else if (object.state !== 'same' && !sameChanges(then, object))
        preview.changed.push({
          id: object.id,
          file: object.file,
          changes: object.changes,
        });
      if (then && then.state !== 'same') preview.alreadyDrifted += 1;
    }
    const atHead = new Set(head.objects.map(o => o.id));
    for (const id of before.keys())
      if (!atHead.has(id)) preview.removed.push({ id, pruned: applied.prune });
    return preview;
  }
}
