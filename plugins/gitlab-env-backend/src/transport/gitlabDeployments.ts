import {
  DeploymentJob,
  DeploymentRecord,
  GitlabUserRef,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabInstanceConfig } from '../config';
import { failure } from '../errors';
import { isRecord } from '../validation/json';
import { isProjectPath } from '../validation/gitlabPaths';
import type { GitlabClient } from './gitlabClient';
import type { GitlabRestClient } from './gitlabRest';

/**
 * An environment's deployment history, newest first, from GitLab's
 * GraphQL `Environment.deployments` (MR !95255; commit, job and triggerer
 * MR !95792) or its REST deployments API (doc/api/deployments.md). Both
 * answer the same DeploymentRecord; GitLab allows one environment's
 * `deployments` per GraphQL request.
 */

/** One page of history and how to ask for the next. */
export interface DeploymentPage {
  deployments: DeploymentRecord[];
  /** GraphQL: the end cursor; REST: the next page number. */
  next?: string;
}

/** GitLab answers at most 100 per page on both APIs. */
export const MAX_DEPLOYMENTS_PER_PAGE = 100;

/**
 * The fields GitLab's own environment page reads
 * (environments/graphql/queries/environment_details.query.graphql), without
 * `CiJob.retryPath` (18.4): a job's id is all the retry needs.
 */
export const ENVIRONMENT_DEPLOYMENTS = /* GraphQL */ `
  query GitlabEnvDeployments(
    $fullPath: ID!
    $name: String!
    $first: Int!
    $after: String
  ) {
    project(fullPath: $fullPath) {
      environment(name: $name) {
        deployments(
          orderBy: { createdAt: DESC }
          first: $first
          after: $after
        ) {
          pageInfo {
            hasNextPage
            endCursor
          }
          nodes {
            id
            iid
            status
            ref
            tag
            sha
            createdAt
            finishedAt
            webPath
            commit {
              shortId
              title
            }
            triggerer {
              username
              name
              webUrl
              avatarUrl
            }
            job {
              id
              name
              status
              webPath
              retryable
              pipeline {
                id
                iid
                path
                status
              }
            }
          }
        }
      }
    }
  }
`;

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The number at the end of a global id (`gid://gitlab/Ci::Build/42`). */
function idOf(value: unknown): string | undefined {
  const raw = typeof value === 'number' ? String(value) : text(value);
  const id = raw?.slice(raw.lastIndexOf('/') + 1);
  return id && /^\d{1,19}$/.test(id) ? id : undefined;
}

function seconds(from?: string, to?: string): number | undefined {
  const ms = Date.parse(to ?? '') - Date.parse(from ?? '');
  return Number.isFinite(ms) && ms >= 0 ? Math.round(ms / 1000) : undefined;
}

function malformed(instance: GitlabInstanceConfig, what: string) {
  return failure(
    'UPSTREAM_MALFORMED',
    `GitLab (${instance.host}) answered the deployment history with ${what}.`,
  );
}

function userOf(value: unknown, webUrlKey: string): GitlabUserRef | undefined {
  if (!isRecord(value) || !text(value.name)) return undefined;
  return {
    username: text(value.username),
    name: value.name,
    webUrl: text(value[webUrlKey]),
    avatarUrl: text(value.avatarUrl) ?? text(value.avatar_url),
  };
}

const at = (base: string, path: unknown) =>
  text(path)?.startsWith('/') ? `${base}${path}` : undefined;

function fromNode(
  node: Record<string, any>,
  instance: GitlabInstanceConfig,
): DeploymentRecord | undefined {
  const id = idOf(node.id);
  if (!id || !text(node.iid)) return undefined;
  const job = isRecord(node.job) ? node.job : undefined;
  const pipeline = isRecord(job?.pipeline) ? job!.pipeline : undefined;
  const jobId = idOf(job?.id);
  const createdAt = text(node.createdAt);
  const finishedAt = text(node.finishedAt);
  return {
    id,
    iid: node.iid,
    status: String(node.status ?? '').toLowerCase(),
    ref: text(node.ref),
    tag: node.tag === true,
    sha: text(node.sha),
    shortSha: text(node.commit?.shortId) ?? text(node.sha)?.slice(0, 8),
    commitTitle: text(node.commit?.title),
    triggerer: userOf(node.triggerer, 'webUrl'),
    job:
      job && jobId
        ? {
            id: jobId,
            name: text(job.name),
            status: text(job.status)?.toLowerCase(),
            webUrl: at(instance.baseUrl, job.webPath),
            retryable:
              typeof job.retryable === 'boolean' ? job.retryable : undefined,
            pipeline: idOf(pipeline?.id)
              ? {
                  id: idOf(pipeline!.id)!,
                  iid: text(pipeline!.iid),
                  status: text(pipeline!.status)?.toLowerCase(),
                  webUrl: at(instance.baseUrl, pipeline!.path),
                }
              : undefined,
          }
        : undefined,
    createdAt,
    finishedAt,
    durationSeconds: seconds(createdAt, finishedAt),
    webUrl: at(instance.baseUrl, node.webPath),
  };
}

/** A page of `Environment.deployments`, newest first. */
export async function graphqlDeployments(
  client: GitlabClient,
  instance: GitlabInstanceConfig,
  projectPath: string,
  environmentName: string,
  first: number,
  after?: string,
): Promise<DeploymentPage> {
  const data = await client.query(ENVIRONMENT_DEPLOYMENTS, {
    fullPath: projectPath,
    name: environmentName,
    first,
    after,
  });
  const environment = data.project?.environment;
  if (!isRecord(environment))
    throw failure(
      'ENVIRONMENT_NOT_FOUND',
      `GitLab (${instance.host}) shows no environment ${environmentName} in ${projectPath} to the configured token.`,
    );
  const connection = environment.deployments;
  if (!isRecord(connection) || !Array.isArray(connection.nodes))
    throw malformed(instance, 'no deployments connection');
  const next =
    connection.pageInfo?.hasNextPage && text(connection.pageInfo.endCursor);
  return {
    deployments: connection.nodes
      .filter(isRecord)
      .map(node => fromNode(node, instance))
      .filter((d): d is DeploymentRecord => !!d),
    ...(next && next !== after && { next }),
  };
}

function jobOf(deployable: unknown): DeploymentJob | undefined {
  if (!isRecord(deployable)) return undefined;
  const id = idOf(deployable.id);
  if (!id) return undefined;
  const pipeline = isRecord(deployable.pipeline)
    ? deployable.pipeline
    : undefined;
  return {
    id,
    name: text(deployable.name),
    status: text(deployable.status),
    webUrl: text(deployable.web_url),
    pipeline: idOf(pipeline?.id)
      ? {
          id: idOf(pipeline!.id)!,
          iid: pipeline!.iid !== undefined ? String(pipeline!.iid) : undefined,
          status: text(pipeline!.status),
          webUrl: text(pipeline!.web_url),
        }
      : undefined,
  };
}

/** A page of `GET /projects/:id/deployments?environment=`, newest first. */
export async function restDeployments(
  rest: GitlabRestClient,
  instance: GitlabInstanceConfig,
  project: { id: string; fullPath: string; webUrl: string },
  environment: { id: string; name: string },
  perPage: number,
  page: number,
  /** Only deployments of this status (GitLab's `status` filter). */
  status?: 'success',
): Promise<DeploymentPage> {
  if (!isProjectPath(project.fullPath))
    throw malformed(instance, 'an invalid project path');
  const response = await rest.send(
    `/projects/${encodeURIComponent(
      project.fullPath,
    )}/deployments?${new URLSearchParams({
      environment: environment.name,
      ...(status && { status }),
      order_by: 'created_at',
      sort: 'desc',
      per_page: String(perPage),
      page: String(page),
    })}`,
  );
  if (response.status === 403 || response.status === 404)
    throw failure(
      'PROJECT_NOT_FOUND',
      `GitLab (${instance.host}) does not show the deployments of ${project.fullPath} to the configured token (HTTP ${response.status}).`,
      {
        hint: "Give the token's user the Reporter role (or above) on the project.",
      },
    );
  if (response.status !== 200 || !Array.isArray(response.body))
    throw malformed(instance, `HTTP ${response.status} and no list`);
  const next = response.headers.get('x-next-page');
  return {
    deployments: response.body.filter(isRecord).flatMap(item => {
      const id = idOf(item.id);
      if (!id || item.iid === undefined) return [];
      const job = jobOf(item.deployable);
      const createdAt = text(item.created_at);
      // REST keeps no finished time on the deployment: its job's.
      const finishedAt = ['success', 'failed', 'canceled'].includes(
        String(item.status),
      )
        ? text(item.deployable?.finished_at) ?? text(item.updated_at)
        : undefined;
      const commit = isRecord(item.deployable?.commit)
        ? item.deployable.commit
        : undefined;
      return [
        {
          id,
          iid: String(item.iid),
          status: String(item.status ?? ''),
          ref: text(item.ref),
          tag: item.deployable?.tag === true,
          sha: text(item.sha),
          shortSha: text(commit?.short_id) ?? text(item.sha)?.slice(0, 8),
          commitTitle: text(commit?.title),
          triggerer: userOf(item.user, 'web_url'),
          job,
          createdAt,
          finishedAt,
          durationSeconds: seconds(createdAt, finishedAt),
          webUrl: `${project.webUrl}/-/environments/${environment.id}/deployments/${item.iid}`,
        },
      ];
    }),
    ...(next && /^\d+$/.test(next) && { next }),
  };
}
