import { createHash } from 'crypto';
import {
  ScenarioCommit,
  ScenarioDeployment,
  ScenarioEnvironment,
  ScenarioProject,
} from '../scenario/types';
import { GitlabDirectory } from './access';
import { emailOf } from './entities';
import { isRetryable } from './jobs';
import { pipelineStatus } from './pipelines';

/**
 * GraphQL values of the deployment types (doc/api/graphql/reference:
 * Deployment, CiJob, Pipeline, Commit, UserCore; app/graphql/types/
 * deployment_type.rb, ci/job_type.rb): global ids, web paths, upper-case
 * enums, and `retryPath` only for a retryable job (JobType#retry_path).
 */

interface NodeContext {
  directory: GitlabDirectory;
  baseUrl: string;
}

export function userNode(ctx: NodeContext, username: string) {
  const user = ctx.directory.scenario.users.find(u => u.username === username);
  if (!user) return null;
  return {
    id: `gid://gitlab/User/${user.id}`,
    username: user.username,
    name: user.name,
    avatarUrl: null,
    webUrl: `${ctx.baseUrl}/${user.username}`,
    webPath: `/${user.username}`,
  };
}

export function commitNode(
  ctx: NodeContext,
  project: ScenarioProject,
  commit: ScenarioCommit,
) {
  const user = ctx.directory.scenario.users.find(
    u => u.username === commit.author,
  );
  const email = emailOf(commit.author);
  const description = commit.message.split('\n').slice(1).join('\n').trim();
  return {
    id: `gid://gitlab/Commit/${commit.id}`,
    sha: commit.id,
    shortId: commit.id.slice(0, 8),
    title: commit.title,
    fullTitle: commit.title,
    message: commit.message,
    description: description || null,
    authorName: user?.name ?? commit.author,
    authorEmail: email,
    authorGravatar: `https://www.gravatar.com/avatar/${createHash('md5')
      .update(email)
      .digest('hex')}?s=80&d=identicon`,
    authoredDate: commit.authoredAt,
    committedDate: commit.committedAt,
    webUrl: `${ctx.baseUrl}/${project.fullPath}/-/commit/${commit.id}`,
    webPath: `/${project.fullPath}/-/commit/${commit.id}`,
    author: () => userNode(ctx, commit.author),
  };
}

const ACTIVE = ['created', 'pending', 'running'];

export function jobNode(
  ctx: NodeContext,
  project: ScenarioProject,
  deployment: ScenarioDeployment,
) {
  const { job } = deployment;
  const retryable = isRetryable(deployment);
  const path = `/${project.fullPath}/-/jobs/${job.id}`;
  const seconds =
    job.startedAt && job.finishedAt
      ? Math.round(
          (Date.parse(job.finishedAt) - Date.parse(job.startedAt)) / 1000,
        )
      : null;
  return {
    id: `gid://gitlab/Ci::Build/${job.id}`,
    name: job.name,
    status: job.status.toUpperCase(),
    stage: {
      id: `gid://gitlab/Ci::Stage/${job.pipeline.id * 10 + 1}`,
      name: job.stage,
    },
    kind: 'BUILD',
    allowFailure: false,
    active: ACTIVE.includes(job.status),
    cancelable: ACTIVE.includes(job.status),
    playable: false,
    playPath: `${path}/play`,
    retryable,
    retried: job.retried,
    retryPath: retryable ? `${path}/retry` : null,
    webPath: path,
    refName: deployment.ref,
    refPath: `/${project.fullPath}/-/commits/${deployment.ref}`,
    shortSha: deployment.sha.slice(0, 8),
    createdByTag: deployment.tag,
    createdAt: job.createdAt,
    startedAt: job.startedAt ?? null,
    finishedAt: job.finishedAt ?? null,
    duration: seconds,
    pipeline: () => ({
      __typename: 'Pipeline',
      id: `gid://gitlab/Ci::Pipeline/${job.pipeline.id}`,
      iid: String(job.pipeline.iid),
      path: `/${project.fullPath}/-/pipelines/${job.pipeline.id}`,
      status: pipelineStatus(project, job.pipeline.id).toUpperCase(),
      sha: deployment.sha,
      ref: deployment.ref,
      createdAt: job.createdAt,
      updatedAt: deployment.updatedAt,
      finishedAt: job.finishedAt ?? null,
      user: () => userNode(ctx, job.user),
    }),
  };
}

export function deploymentNode(
  ctx: NodeContext,
  project: ScenarioProject,
  env: ScenarioEnvironment,
  deployment: ScenarioDeployment,
) {
  return {
    id: `gid://gitlab/Deployment/${deployment.id}`,
    iid: String(deployment.iid),
    status: deployment.status,
    ref: deployment.ref,
    sha: deployment.sha,
    tag: deployment.tag,
    createdAt: deployment.createdAt,
    updatedAt: deployment.updatedAt,
    finishedAt: deployment.finishedAt ?? null,
    webPath: `/${project.fullPath}/-/environments/${env.id}/deployments/${deployment.iid}`,
    refPath: `/${project.fullPath}/-/tree/${deployment.ref}`,
    commit: () => {
      const commit = project.repository.commits.get(deployment.sha);
      return commit ? commitNode(ctx, project, commit) : null;
    },
    job: () => jobNode(ctx, project, deployment),
    triggerer: () => userNode(ctx, deployment.triggerer),
  };
}
