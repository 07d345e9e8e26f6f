import {
  JobStatus,
  ScenarioDeployment,
  ScenarioEnvironment,
  ScenarioProject,
} from '../scenario/types';
import { lifecycle } from '../scenario/deployments';
import { Caller, GitlabDirectory } from './access';
import { findJob } from './pipelines';

/**
 * Retrying a deploy job: GitLab's "Rollback environment" / "Re-deploy"
 * (app/assets/javascripts/environments/ confirm_rollback_modal.vue POSTs to
 * the job's retry path), REST `POST /projects/:id/jobs/:job_id/retry`
 * (lib/api/ci/jobs.rb) and GraphQL `jobRetry` (app/graphql/mutations/ci/job/retry.rb),
 * all through `Ci::RetryJobService`:
 *
 * - who may: `retry_job` follows `update_build` (Ci::BuildPolicy,
 *   ProcessablePolicy): Developer+, refused on a protected ref the user
 *   may not push or merge to (a protected tag they may not create), and on
 *   Premium refused outright where a protected environment does not list
 *   the user under "Allowed to deploy" (ee/app/policies/ee/ci/build_policy.rb,
 *   `deployable_by_user`); a Reporter allowed to deploy there may
 *   (`reporter_has_access_to_protected_environment`);
 * - what may be retried: a finished job (success, failed, canceled) that was
 *   not retried already (`Ci::Processable#retryable?`), else "Job is not
 *   retryable";
 * - what happens: a new job in the same pipeline, at the same ref and
 *   commit, creates a new deployment (next iid) of the environment, run by
 *   the caller; the old job becomes retried. The job then runs (pending →
 *   running → success) and, when it succeeds, re-applies the deployment's
 *   images to the environment's workloads (`onDeployed`).
 */

export type RetryRefusal = 'not_found' | 'forbidden' | 'not_retryable';

const ROLE_RANK = {
  guest: 10,
  reporter: 20,
  developer: 30,
  maintainer: 40,
  owner: 50,
} as const;

/** A GitLab name pattern: `*` matches any run of characters (protected branches and tags). */
function matchesPattern(pattern: string, name: string): boolean {
  const parts = pattern
    .split('*')
    .map(p => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`).test(name);
}

/** Is the user on the protected environment's "Allowed to deploy" list? */
export function allowedToDeploy(
  directory: GitlabDirectory,
  caller: Caller,
  project: ScenarioProject,
  env: ScenarioEnvironment,
): boolean {
  if (!env.protected) return true;
  const role = directory.roleIn(caller.user, project.fullPath);
  return env.protected.deployAccess.some(
    access =>
      (access.user !== undefined && access.user === caller.user.username) ||
      (access.role !== undefined && role >= ROLE_RANK[access.role]),
  );
}

/** `retry_job` on a deploy job (see the module comment). */
export function mayRetry(
  directory: GitlabDirectory,
  caller: Caller,
  project: ScenarioProject,
  env: ScenarioEnvironment,
  deployment: ScenarioDeployment,
): boolean {
  const role = directory.roleIn(caller.user, project.fullPath);
  const premium = directory.scenario.instance.version.endsWith('-ee');
  const protectedEnv = premium && env.protected !== undefined;
  const deployer =
    protectedEnv && allowedToDeploy(directory, caller, project, env);
  if (protectedEnv && !deployer) return false;
  const reporterDeployer = deployer && role >= ROLE_RANK.reporter;
  if (role < ROLE_RANK.developer && !reporterDeployer) return false;
  const patterns = deployment.tag
    ? project.repository.protectedTags ?? []
    : project.protectedBranches ?? [project.defaultBranch];
  const protectedRef = patterns.some(p => matchesPattern(p, deployment.ref));
  // Protected branches and tags let Maintainers push, merge and create tags here.
  const mayUpdateRef = role >= ROLE_RANK.maintainer;
  return !protectedRef || mayUpdateRef || reporterDeployer;
}

/** `Ci::Processable#retryable?`. */
export function isRetryable(deployment: ScenarioDeployment): boolean {
  return (
    !deployment.job.retried &&
    ['success', 'failed', 'canceled'].includes(deployment.job.status)
  );
}

export interface RunnerOptions {
  /** How long the new job stays pending, then running (ms each). */
  jobPhaseMs: number;
  /** The job succeeded: apply the deployment to the environment's cluster. */
  onDeployed(
    project: ScenarioProject,
    env: ScenarioEnvironment,
    deployment: ScenarioDeployment,
  ): void;
}

/** Runs retried deploy jobs to completion on timers, like a runner picking them up. */
export class DeployRunner {
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly directory: GitlabDirectory,
    private readonly options: RunnerOptions,
  ) {}

  dispose() {
    this.timers.forEach(clearTimeout);
    this.timers.clear();
  }

  private later(fn: () => void) {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, this.options.jobPhaseMs);
    timer.unref();
    this.timers.add(timer);
  }

  /** Retries a job as the caller; the new deployment, or why not. */
  retry(
    caller: Caller,
    project: ScenarioProject,
    jobId: number,
  ): ScenarioDeployment | RetryRefusal {
    const found = findJob(project, jobId);
    if (!found) return 'not_found';
    const { env, deployment } = found;
    if (!mayRetry(this.directory, caller, project, env, deployment))
      return 'forbidden';
    if (!isRetryable(deployment)) return 'not_retryable';
    const all = this.directory.scenario.projects.flatMap(p =>
      p.environments.flatMap(e => e.deployments),
    );
    const now = Date.now();
    const times = lifecycle('CREATED', now);
    const created: ScenarioDeployment = {
      ...deployment,
      id: Math.max(...all.map(d => d.id)) + 1,
      iid:
        Math.max(
          0,
          ...project.environments.flatMap(e => e.deployments.map(d => d.iid)),
        ) + 1,
      status: 'CREATED',
      createdAt: times.createdAt,
      updatedAt: times.updatedAt,
      finishedAt: undefined,
      triggerer: caller.user.username,
      job: {
        ...deployment.job,
        id: Math.max(...all.map(d => d.job.id)) + 1,
        status: 'pending',
        retried: false,
        createdAt: times.createdAt,
        startedAt: undefined,
        finishedAt: undefined,
        user: caller.user.username,
      },
    };
    deployment.job.retried = true;
    env.deployments.unshift(created);
    env.updatedAt = created.updatedAt;
    this.later(() => {
      this.advance(env, created, 'running', 'RUNNING');
      this.later(() => {
        this.advance(env, created, 'success', 'SUCCESS');
        this.options.onDeployed(project, env, created);
      });
    });
    return created;
  }

  private advance(
    env: ScenarioEnvironment,
    deployment: ScenarioDeployment,
    job: JobStatus,
    status: ScenarioDeployment['status'],
  ) {
    const at = new Date().toISOString();
    deployment.status = status;
    deployment.job.status = job;
    deployment.updatedAt = at;
    if (job === 'running') deployment.job.startedAt = at;
    else {
      deployment.job.finishedAt = at;
      deployment.finishedAt = at;
    }
    env.updatedAt = at;
  }
}
