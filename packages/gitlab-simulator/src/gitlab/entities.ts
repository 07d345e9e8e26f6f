import {
  ScenarioCommit,
  ScenarioDeployment,
  ScenarioEnvironment,
  ScenarioMergeRequest,
  ScenarioProject,
  ScenarioUser,
} from '../scenario/types';
import { environmentSlug } from '../scenario/slug';
import { atLeast } from '../scenario/version';
import { GitlabDirectory } from './access';
import { pipelineStatus } from './pipelines';
import { FileDiff } from './repository';

/**
 * REST entities (lib/api/entities/*.rb) of the history endpoints: users,
 * commits, pipelines, jobs, deployments, merge requests and diffs, with
 * GitLab's field names. `base` is the instance URL.
 */

export interface EntityContext {
  directory: GitlabDirectory;
  baseUrl: string;
}

/** A username the scenario may not list as a user (an outside committer) still has a name. */
function userOf(directory: GitlabDirectory, username: string): ScenarioUser {
  return (
    directory.scenario.users.find(u => u.username === username) ?? {
      id: 0,
      username,
      name: username,
    }
  );
}

/** Entities::UserBasic. */
export function userJson(ctx: EntityContext, username: string) {
  const user = userOf(ctx.directory, username);
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: 'active',
    locked: false,
    avatar_url: null,
    web_url: `${ctx.baseUrl}/${user.username}`,
  };
}

export function emailOf(username: string): string {
  return `${username}@example.com`;
}

/** Entities::Commit. */
export function commitJson(
  ctx: EntityContext,
  project: ScenarioProject,
  commit: ScenarioCommit,
) {
  const author = userOf(ctx.directory, commit.author);
  return {
    id: commit.id,
    short_id: commit.id.slice(0, 8),
    created_at: commit.committedAt,
    parent_ids: commit.parents,
    title: commit.title,
    message: commit.message,
    author_name: author.name,
    author_email: emailOf(author.username),
    authored_date: commit.authoredAt,
    committer_name: author.name,
    committer_email: emailOf(author.username),
    committed_date: commit.committedAt,
    trailers: {},
    extended_trailers: {},
    web_url: `${ctx.baseUrl}/${project.fullPath}/-/commit/${commit.id}`,
  };
}

/** Entities::Ci::PipelineBasic. */
export function pipelineJson(
  ctx: EntityContext,
  project: ScenarioProject,
  deployment: ScenarioDeployment,
) {
  const { pipeline } = deployment.job;
  return {
    id: pipeline.id,
    iid: pipeline.iid,
    project_id: project.id,
    sha: deployment.sha,
    ref: deployment.ref,
    status: pipelineStatus(project, pipeline.id),
    source: 'push',
    created_at: deployment.job.createdAt,
    updated_at: deployment.updatedAt,
    web_url: `${ctx.baseUrl}/${project.fullPath}/-/pipelines/${pipeline.id}`,
  };
}

function seconds(from?: string, to?: string): number | null {
  if (!from) return null;
  const end = to ? Date.parse(to) : Date.now();
  return (end - Date.parse(from)) / 1000;
}

/** Entities::Ci::Job (a deploy job, the deployment's `deployable`). */
export function jobJson(
  ctx: EntityContext,
  project: ScenarioProject,
  deployment: ScenarioDeployment,
) {
  const { job } = deployment;
  const commit = project.repository.commits.get(deployment.sha);
  return {
    id: job.id,
    status: job.status,
    stage: job.stage,
    name: job.name,
    ref: deployment.ref,
    tag: deployment.tag,
    coverage: null,
    allow_failure: false,
    created_at: job.createdAt,
    started_at: job.startedAt ?? null,
    finished_at: job.finishedAt ?? null,
    erased_at: null,
    duration: seconds(job.startedAt, job.finishedAt),
    queued_duration: job.startedAt
      ? seconds(job.createdAt, job.startedAt)
      : null,
    user: userJson(ctx, job.user),
    commit: commit ? commitJson(ctx, project, commit) : null,
    pipeline: pipelineJson(ctx, project, deployment),
    ...(job.status === 'failed' ? { failure_reason: 'script_failure' } : {}),
    web_url: `${ctx.baseUrl}/${project.fullPath}/-/jobs/${job.id}`,
    project: { ci_job_token_scope_enabled: false },
    artifacts: [],
    runner: null,
    runner_manager: null,
    artifacts_expire_at: null,
    archived: false,
    tag_list: [],
  };
}

/** Entities::EnvironmentBasic. */
function environmentBasicJson(env: ScenarioEnvironment) {
  return {
    id: env.id,
    name: env.name,
    slug: environmentSlug(env.name),
    external_url: env.externalUrl ?? null,
    created_at: env.createdAt,
    updated_at: env.updatedAt,
  };
}

/** Entities::Deployment (DeploymentExtended adds approvals on Premium). */
export function deploymentJson(
  ctx: EntityContext,
  project: ScenarioProject,
  env: ScenarioEnvironment,
  deployment: ScenarioDeployment,
  extended = false,
) {
  const enterprise = ctx.directory.scenario.instance.version.endsWith('-ee');
  return {
    id: deployment.id,
    iid: deployment.iid,
    ref: deployment.ref,
    sha: deployment.sha,
    created_at: deployment.createdAt,
    updated_at: deployment.updatedAt,
    user: userJson(ctx, deployment.triggerer),
    environment: environmentBasicJson(env),
    deployable: jobJson(ctx, project, deployment),
    status: deployment.status.toLowerCase(),
    ...(extended && enterprise
      ? { pending_approval_count: 0, approvals: [], approval_summary: null }
      : {}),
  };
}

/** Entities::MergeRequestBasic. */
export function mergeRequestJson(
  ctx: EntityContext,
  project: ScenarioProject,
  mr: ScenarioMergeRequest,
) {
  const author = userJson(ctx, mr.author);
  const mergedBy = mr.mergedBy ? userJson(ctx, mr.mergedBy) : null;
  return {
    id: mr.id,
    iid: mr.iid,
    project_id: project.id,
    title: mr.title,
    description: mr.description,
    state: mr.state,
    created_at: mr.createdAt,
    updated_at: mr.updatedAt,
    merged_by: mergedBy,
    merge_user: mergedBy,
    merged_at: mr.mergedAt ?? null,
    closed_by: mr.closedAt ? author : null,
    closed_at: mr.closedAt ?? null,
    target_branch: mr.targetBranch,
    source_branch: mr.sourceBranch,
    user_notes_count: 0,
    upvotes: 0,
    downvotes: 0,
    author,
    assignees: [],
    assignee: null,
    reviewers: [],
    source_project_id: project.id,
    target_project_id: project.id,
    labels: [],
    draft: false,
    work_in_progress: false,
    milestone: null,
    merge_when_pipeline_succeeds: false,
    merge_status: mr.state === 'opened' ? 'can_be_merged' : 'unchecked',
    detailed_merge_status: mr.state === 'opened' ? 'mergeable' : 'not_open',
    sha: mr.sha,
    merge_commit_sha: mr.mergeCommitSha ?? null,
    squash_commit_sha: null,
    discussion_locked: null,
    should_remove_source_branch: null,
    force_remove_source_branch: true,
    prepared_at: mr.createdAt,
    reference: `!${mr.iid}`,
    references: {
      short: `!${mr.iid}`,
      relative: `!${mr.iid}`,
      full: `${project.fullPath}!${mr.iid}`,
    },
    web_url: `${ctx.baseUrl}/${project.fullPath}/-/merge_requests/${mr.iid}`,
    time_stats: {
      time_estimate: 0,
      total_time_spent: 0,
      human_time_estimate: null,
      human_total_time_spent: null,
    },
    squash: false,
    squash_on_merge: false,
    task_completion_status: { count: 0, completed_count: 0 },
    has_conflicts: false,
    blocking_discussions_resolved: true,
  };
}

/**
 * Entities::Diff, with the fields of the instance's version: `generated_file`
 * from 16.9 (doc/api/merge_requests.md), `too_large` from 18.4 (MR !199633).
 */
export function diffJson(ctx: EntityContext, diff: FileDiff) {
  const { version } = ctx.directory.scenario.instance;
  const { too_large: tooLarge, ...rest } = diff;
  return {
    ...rest,
    ...(atLeast(version, '16.9') ? { generated_file: false } : {}),
    ...(atLeast(version, '18.4') ? { too_large: tooLarge } : {}),
  };
}
