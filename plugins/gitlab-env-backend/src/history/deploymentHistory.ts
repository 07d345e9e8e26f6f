import { Entity } from '@backstage/catalog-model';
import {
  DeploymentChanges,
  DeploymentHistoryResponse,
  DeploymentImageChange,
  DeploymentMergeRequest,
  DeploymentRecord,
  GitlabEnvError,
  GitlabRollbackResponse,
  deploymentImageChanges,
  shellWord,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import pLimit from 'p-limit';
import { GitlabInstanceConfig } from '../config';
import { asGitlabEnvError, failure, GitlabEnvFailure } from '../errors';
import { CallOptions, GitlabEnvironmentsService } from '../facade';
import {
  DeploymentPage,
  graphqlDeployments,
  MAX_DEPLOYMENTS_PER_PAGE,
  restDeployments,
} from '../transport/gitlabDeployments';
import {
  commitMergeRequests,
  compareCommits,
  deploymentMergeRequests,
  retryJob,
} from '../transport/gitlabRepository';
import { FIELD_SINCE, versionAtLeast } from '../transport/gitlabVersion';
import { isRecord } from '../validation/json';
import { GitlabAccess, RollbackReadiness } from './gitlabAccess';
import type { EnvironmentContext } from '../planning/AgentAccess';

/** Commits whose merge requests are looked up one by one, when GitLab linked none. */
const MAX_COMMIT_LOOKUPS = 20;
const DEFAULT_PAGE = 20;
/** Pages of successful deployments walked back to find a deployment's previous one. */
const MAX_PREVIOUS_PAGES = 10;

/** What the history tells the timeline. */
export interface DeploymentsListener {
  recordDeployments(
    host: string,
    environment: { id: string; slug: string },
    deployments: readonly DeploymentRecord[],
  ): void;
}

function cursorOf(source: 'graphql' | 'rest', next?: string) {
  return next ? `${source === 'graphql' ? 'g' : 'r'}:${next}` : undefined;
}

function readCursor(cursor: string | undefined) {
  if (!cursor) return {};
  const match = /^([gr]):(.{1,500})$/.exec(cursor);
  if (!match || (match[1] === 'r' && !/^\d{1,6}$/.test(match[2])))
    throw failure('INVALID_REQUEST', 'The history cursor is not valid.', {
      hint: 'Reload the history.',
    });
  return { source: match[1] === 'g' ? 'graphql' : 'rest', value: match[2] };
}

/** A GraphQL document GitLab refused for a field it lacks: the REST API serves the same history. */
function schemaRefusal(error: unknown): boolean {
  return (
    error instanceof GitlabEnvFailure &&
    error.detail.code === 'UPSTREAM_MALFORMED' &&
    /Cannot query field|doesn't accept argument|refused the query/i.test(
      error.message,
    )
  );
}

/**
 * An environment's deployment history from GitLab, what each deployment
 * brought, and GitLab's rollback (re-running an earlier deploy job).
 */
export class DeploymentHistory {
  constructor(
    private readonly service: GitlabEnvironmentsService,
    private readonly gitlab: GitlabAccess,
    private readonly listener?: DeploymentsListener,
  ) {}

  /** One page, newest first; `cursor` continues a previous page. */
  async page(
    entity: Entity,
    slug: string,
    options: CallOptions & { cursor?: string; limit?: number } = {},
  ): Promise<DeploymentHistoryResponse> {
    const ctx = await this.service.environmentContext(entity, slug, options);
    const { instance, located, environment } = ctx;
    const limit = Math.min(
      options.limit ?? DEFAULT_PAGE,
      MAX_DEPLOYMENTS_PER_PAGE,
    );
    const cursor = readCursor(options.cursor);
    const facts = await this.gitlab.transport.usableInstance(instance);
    const graphql =
      cursor.source !== 'rest' &&
      versionAtLeast(facts.version, FIELD_SINCE.environmentDeployments);
    let source: 'graphql' | 'rest' = graphql ? 'graphql' : 'rest';
    let page: DeploymentPage;
    try {
      page = graphql
        ? await graphqlDeployments(
            this.gitlab.transport.gitlab(instance, {
              signal: ctx.signal,
              version: facts.version,
            }),
            instance,
            located.project.fullPath,
            environment.name,
            limit,
            cursor.value,
          )
        : await this.restPage(ctx, limit, Number(cursor.value ?? 1));
    } catch (error) {
      if (!graphql || !schemaRefusal(error) || cursor.value) throw error;
      source = 'rest';
      page = await this.restPage(ctx, limit, 1);
    }
    const readiness = await this.gitlab.rollbackReadiness(instance);
    const newestSuccess = options.cursor
      ? undefined
      : page.deployments.find(d => d.status === 'success');
    this.listener?.recordDeployments(
      instance.host,
      environment,
      page.deployments,
    );
    return {
      environment: {
        name: environment.name,
        slug: environment.slug,
        webUrl: environment.webUrl,
      },
      project: {
        fullPath: located.project.fullPath,
        webUrl: located.project.webUrl,
      },
      deployments: page.deployments.map(d => ({
        ...d,
        rollback: {
          ...rollbackOffer(d, d === newestSuccess, readiness),
          ...(d.job && {
            command: retryCommand(instance, located.project.fullPath, d.job.id),
          }),
        },
      })),
      ...(page.next && { nextCursor: cursorOf(source, page.next) }),
      source,
      gitlabRollback: readiness,
    };
  }

  private restPage(ctx: EnvironmentContext, limit: number, page: number) {
    return restDeployments(
      this.gitlab.rest(ctx.instance, ctx.signal),
      ctx.instance,
      ctx.located.project,
      ctx.environment,
      limit,
      page,
    );
  }

  /** The deployment with this global id, checked to be the environment's. */
  private async deployment(ctx: EnvironmentContext, id: string) {
    if (!/^\d{1,19}$/.test(id))
      throw failure(
        'INVALID_REQUEST',
        `The deployment id ${JSON.stringify(id)} is not a number.`,
      );
    const { instance, located, environment } = ctx;
    const response = await this.gitlab
      .rest(instance, ctx.signal)
      .send(
        `/projects/${encodeURIComponent(
          located.project.fullPath,
        )}/deployments/${id}`,
      );
    const body = response.body;
    if (
      response.status !== 200 ||
      !isRecord(body) ||
      !isRecord(body.environment) ||
      body.environment.name !== environment.name
    )
      throw failure(
        'DEPLOYMENT_NOT_FOUND',
        `Deployment ${id} is not one of environment ${environment.name}'s in ${located.project.fullPath}.`,
        { upstreamStatus: response.status },
      );
    return body;
  }

  /**
   * The newest successful deployment of the environment before `id`, as
   * GitLab's own Deployment#previous_deployment picks it (successful, a
   * lower id). GitLab lists successful deployments newest first, sorted by
   * id (its created_at sort is by id); the walk stops at the first lower id,
   * and after MAX_PREVIOUS_PAGES pages (`reached: false`): an old
   * deployment of a busy environment is not worth a thousand requests.
   */
  private async previousSuccess(
    ctx: EnvironmentContext,
    id: string,
  ): Promise<{ previous?: DeploymentRecord; reached: boolean }> {
    const rest = this.gitlab.rest(ctx.instance, ctx.signal);
    for (let page = 1; page <= MAX_PREVIOUS_PAGES; page++) {
      const listed = await restDeployments(
        rest,
        ctx.instance,
        ctx.located.project,
        ctx.environment,
        MAX_DEPLOYMENTS_PER_PAGE,
        page,
        'success',
      );
      const previous = listed.deployments
        .filter(d => d.status === 'success' && Number(d.id) < Number(id))
        .sort((a, b) => Number(b.id) - Number(a.id))[0];
      if (previous) return { previous, reached: true };
      if (!listed.next) return { reached: true };
    }
    return { reached: false };
  }

  /**
   * What a deployment brought since the previous successful one: the
   * commits (compare API; a deployment of an older commit lists the
   * commits it took back), the merge requests GitLab linked to it (else
   * those of its commits), and the images the cluster's revisions show
   * changing when it rolled out.
   */
  async changes(
    entity: Entity,
    slug: string,
    deploymentId: string,
    options: CallOptions = {},
  ): Promise<DeploymentChanges & { errors?: GitlabEnvError[] }> {
    const ctx = await this.service.environmentContext(entity, slug, options);
    const { instance, located } = ctx;
    const project = located.project.fullPath;
    const body = await this.deployment(ctx, deploymentId);
    const sha = typeof body.sha === 'string' ? body.sha : undefined;
    const { previous, reached } = await this.previousSuccess(
      ctx,
      deploymentId,
    );
    const changes: DeploymentChanges = {
      ...(previous && {
        since: { iid: previous.iid, sha: previous.sha, ref: previous.ref },
      }),
      commits: [],
      mergeRequests: [],
      images: [],
      notes: [],
    };
    const errors: GitlabEnvError[] = [];
    if (sha && previous?.sha && previous.sha !== sha) {
      const forward = await this.gitlab.cached(
        instance,
        `compare|${instance.host}|${project}|${previous.sha}|${sha}`,
        rest => compareCommits(rest, instance, project, previous.sha!, sha),
        ctx.signal,
      );
      let compared = forward;
      if (forward && forward.commits.length === 0) {
        compared = await this.gitlab.cached(
          instance,
          `compare|${instance.host}|${project}|${sha}|${previous.sha}`,
          rest => compareCommits(rest, instance, project, sha, previous.sha!),
          ctx.signal,
        );
        if (compared?.commits.length) changes.direction = 'back';
      }
      if (!compared)
        changes.notes!.push(
          `GitLab cannot compare ${previous.sha.slice(0, 8)} with ${sha.slice(
            0,
            8,
          )}: one of them is no longer in the repository (a force push) or the token cannot read it.`,
        );
      changes.commits = compared?.commits ?? [];
      changes.commitsTruncated = compared?.truncated || undefined;
      changes.compareUrl =
        compared?.webUrl ??
        `${located.project.webUrl}/-/compare/${previous.sha}...${sha}`;
    } else if (!previous) {
      changes.notes!.push(
        reached
          ? 'The first successful deployment: nothing to compare with.'
          : `The previous successful deployment is more than ${
              MAX_PREVIOUS_PAGES * MAX_DEPLOYMENTS_PER_PAGE
            } successful deployments back: GitLab was not asked further. Compare the commits in GitLab.`,
      );
    }
    changes.mergeRequests = await this.mergeRequestsOf(
      instance,
      project,
      deploymentId,
      changes,
      ctx.signal,
    ).catch(error => {
      errors.push(asGitlabEnvError(error));
      return [];
    });
    try {
      const images = await this.imagesOf(entity, slug, body, previous, options);
      changes.images = images.changes;
      if (images.note) changes.notes!.push(images.note);
    } catch (error) {
      errors.push(asGitlabEnvError(error));
    }
    if (changes.notes!.length === 0) delete changes.notes;
    return { ...changes, ...(errors.length > 0 && { errors }) };
  }

  private async mergeRequestsOf(
    instance: GitlabInstanceConfig,
    project: string,
    deploymentId: string,
    changes: DeploymentChanges,
    signal?: AbortSignal,
  ): Promise<DeploymentMergeRequest[]> {
    const linked = await this.gitlab.cached(
      instance,
      `deployment-mrs|${instance.host}|${project}|${deploymentId}`,
      rest => deploymentMergeRequests(rest, instance, project, deploymentId),
      signal,
    );
    if (linked && linked.length > 0) {
      changes.mergeRequestsFrom = 'deployment';
      return linked;
    }
    if (changes.commits.length === 0) return [];
    // GitLab links merge requests only for production and staging tiers
    // and environments without a folder: look them up by commit.
    changes.mergeRequestsFrom = 'commits';
    const limit = pLimit(4);
    const found = await Promise.all(
      changes.commits
        .slice(-MAX_COMMIT_LOOKUPS)
        .map(commit =>
          limit(() =>
            this.gitlab.cached(
              instance,
              `commit-mrs|${instance.host}|${project}|${commit.sha}`,
              rest => commitMergeRequests(rest, instance, project, commit.sha),
              signal,
            ),
          ),
        ),
    );
    const byIid = new Map<number, DeploymentMergeRequest>();
    for (const list of found)
      for (const mr of list ?? []) byIid.set(mr.iid, mr);
    return [...byIid.values()].sort((a, b) => a.iid - b.iid);
  }

  /**
   * The images the deployment changed, from the environment's (cached)
   * read: the engine's deploymentImageChanges over its workloads'
   * ReplicaSets and ControllerRevisions (and Flux's history for when a
   * GitOps environment applied the commit).
   */
  private async imagesOf(
    entity: Entity,
    slug: string,
    deployment: Record<string, any>,
    previous: DeploymentRecord | undefined,
    options: CallOptions,
  ): Promise<{ changes: DeploymentImageChange[]; note?: string }> {
    const read = await this.service.getEnvironmentResources(
      entity,
      slug,
      options,
    );
    const changes = deploymentImageChanges(
      read.resources,
      {
        ref: deployment.ref,
        tag: deployment.deployable?.tag === true,
        sha: deployment.sha,
        createdAt: deployment.created_at,
        finishedAt: deployment.deployable?.finished_at ?? undefined,
      },
      previous,
    );
    return changes.length > 0
      ? { changes }
      : {
          changes,
          note: 'The cluster keeps no revision showing an image this deployment changed: it changed none, or the revisions are past revisionHistoryLimit.',
        };
  }

  /**
   * GitLab's "Rollback environment": re-runs the deploy job of an earlier
   * successful deployment with the instance's rollback token, once. GitLab
   * makes it a new deployment of the old commit.
   */
  async rollback(
    entity: Entity,
    slug: string,
    deploymentId: string,
    options: Pick<CallOptions, 'located'> = {},
  ): Promise<GitlabRollbackResponse & { jobId: string }> {
    const ctx = await this.service.environmentContext(entity, slug, options);
    const { instance, located, environment } = ctx;
    const readiness = await this.gitlab.rollbackReadiness(instance);
    if (!readiness.configured || !instance.rollbackToken)
      throw failure(
        'ROLLBACK_TOKEN_MISSING',
        readiness.reason ?? 'No rollback token.',
        {
          hint: 'Set gitlabEnv.instances[].rollbackToken to a token with the api scope whose user may deploy to this environment.',
        },
      );
    const body = await this.deployment(ctx, deploymentId);
    const jobId = isRecord(body.deployable)
      ? String(body.deployable.id ?? '')
      : '';
    if (body.status !== 'success' || !jobId)
      throw failure(
        'DEPLOYMENT_NOT_FOUND',
        body.status !== 'success'
          ? `Deployment #${body.iid} did not succeed (${body.status}): only a successful deployment can be rolled back to.`
          : `Deployment #${body.iid} has no deploy job to run again (it was created through the API).`,
      );
    const project = located.project.fullPath;
    // Without the call's deadline: GitLab runs a retry it received whether
    // or not the answer is awaited, and a cut-off answer would hide the job.
    const job = await retryJob(
      this.gitlab.rest(instance),
      instance,
      project,
      jobId,
      instance.rollbackToken,
      environment.name,
    );
    return {
      jobId,
      job,
      message: `GitLab started job ${job.id} (${
        job.name ?? 'the deploy job'
      }) again for deployment #${body.iid} of ${String(
        body.ref ?? '',
      )} (${String(body.sha ?? '').slice(
        0,
        8,
      )}): a new deployment of that commit to ${environment.name}.`,
      command: retryCommand(instance, project, jobId),
    };
  }
}

/** The same retry by hand, against GitLab's REST API. */
export function retryCommand(
  instance: GitlabInstanceConfig,
  project: string,
  jobId: string,
): string {
  return `curl --request POST --header "PRIVATE-TOKEN: $GITLAB_TOKEN" ${shellWord(
    `${instance.apiBaseUrl}/projects/${encodeURIComponent(
      project,
    )}/jobs/${jobId}/retry`,
  )}`;
}

function rollbackOffer(
  deployment: DeploymentRecord,
  current: boolean,
  readiness: RollbackReadiness,
): { available: boolean; reason?: string } {
  if (deployment.status !== 'success')
    return {
      available: false,
      reason: 'Only a successful deployment can be rolled back to.',
    };
  if (!deployment.job)
    return {
      available: false,
      reason: 'It has no deploy job to run again (created through the API).',
    };
  if (current)
    return {
      available: false,
      reason: 'This is what the environment runs now.',
    };
  if (deployment.job.retryable === false)
    return {
      available: false,
      reason: 'GitLab says its deploy job cannot be retried.',
    };
  if (!readiness.configured)
    return { available: false, reason: readiness.reason };
  return { available: true };
}
