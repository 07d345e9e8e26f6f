import {
  ScenarioDeployment,
  ScenarioEnvironment,
  ScenarioMergeRequest,
  ScenarioProject,
} from '../scenario/types';
import { repositoryOf } from './repository';
import { enumParam } from './restParams';

/**
 * Which merge requests a commit or a deployment brought.
 *
 * - A commit's merge requests (`GET /projects/:id/repository/commits/:sha/merge_requests`,
 *   lib/api/commits.rb): those whose commits include it, or whose merge
 *   commit it is.
 * - A deployment's (`GET /projects/:id/deployments/:id/merge_requests`):
 *   linked when it succeeded by `Deployments::LinkMergeRequestsService`, only
 *   in environments without a folder or of tier production or staging
 *   (`Environment#should_link_to_merge_requests?`): the merged merge
 *   requests whose merge commit is in the commits since the previous
 *   successful deployment of the environment (`commits_between`), or, for
 *   its first one, every merged merge request of the deployed branch. A
 *   merge request is linked once per environment (unique index), to the
 *   first deployment that shipped it.
 */

export function mergeRequestsOfCommit(
  project: ScenarioProject,
  sha: string,
): ScenarioMergeRequest[] {
  return project.mergeRequests.filter(
    mr => mr.commits.includes(sha) || mr.mergeCommitSha === sha,
  );
}

function linksToMergeRequests(env: ScenarioEnvironment): boolean {
  return (
    !env.name.includes('/') ||
    env.tier === 'production' ||
    env.tier === 'staging'
  );
}

/** The merge requests each successful deployment of the environment is linked to, by deployment id. */
export function deploymentMergeRequests(
  project: ScenarioProject,
  env: ScenarioEnvironment,
): Map<number, ScenarioMergeRequest[]> {
  const links = new Map<number, ScenarioMergeRequest[]>();
  if (!linksToMergeRequests(env)) return links;
  const repository = repositoryOf(project);
  const linked = new Set<number>();
  let previous: ScenarioDeployment | undefined;
  const successful = env.deployments
    .filter(d => d.status === 'SUCCESS')
    .sort((a, b) => a.id - b.id);
  for (const deployment of successful) {
    let found: ScenarioMergeRequest[];
    if (previous) {
      const shas = new Set(
        repository.commitsBetween(previous.sha, deployment.sha).map(c => c.id),
      );
      found = project.mergeRequests.filter(
        mr =>
          mr.state === 'merged' &&
          mr.mergeCommitSha !== undefined &&
          shas.has(mr.mergeCommitSha),
      );
    } else {
      found = project.mergeRequests.filter(
        mr => mr.state === 'merged' && mr.targetBranch === deployment.ref,
      );
    }
    const fresh = found.filter(mr => !linked.has(mr.id));
    fresh.forEach(mr => linked.add(mr.id));
    links.set(deployment.id, fresh);
    previous = deployment;
  }
  return links;
}

const STATES = ['opened', 'closed', 'locked', 'merged', 'all'] as const;
const ORDER_BY = ['created_at', 'updated_at', 'merged_at', 'title'] as const;

/**
 * The list parameters of the merge request endpoints (MergeRequestsFinder
 * through `merge_requests_base_params`): `state` (default all), `order_by`
 * (default created_at), `sort` (default desc), `source_branch`,
 * `target_branch`, `author_username`, `iids[]`.
 */
export function filterMergeRequests(
  url: URL,
  mergeRequests: ScenarioMergeRequest[],
): ScenarioMergeRequest[] {
  const state = enumParam(url, 'state', STATES, 'all');
  const orderBy = enumParam(url, 'order_by', ORDER_BY, 'created_at');
  const sort = enumParam(url, 'sort', ['asc', 'desc'] as const, 'desc');
  const source = url.searchParams.get('source_branch');
  const target = url.searchParams.get('target_branch');
  const author = url.searchParams.get('author_username');
  const iids = url.searchParams.getAll('iids[]').map(Number);
  const key = (mr: ScenarioMergeRequest): string =>
    ({
      created_at: mr.createdAt,
      updated_at: mr.updatedAt,
      merged_at: mr.mergedAt ?? '',
      title: mr.title,
    }[orderBy]);
  return mergeRequests
    .filter(mr => state === 'all' || mr.state === state)
    .filter(mr => source === null || mr.sourceBranch === source)
    .filter(mr => target === null || mr.targetBranch === target)
    .filter(mr => author === null || mr.author === author)
    .filter(mr => iids.length === 0 || iids.includes(mr.iid))
    .sort(
      (a, b) =>
        (sort === 'asc' ? 1 : -1) *
        (key(a).localeCompare(key(b)) || a.id - b.id),
    );
}
