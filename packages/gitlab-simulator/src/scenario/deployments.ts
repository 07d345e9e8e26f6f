import { parseAge } from '../cluster/ids';
import { commitIdOf, linearHistory, loadHistory } from './history';
import {
  DeploymentStatus,
  JobStatus,
  ScenarioDeployment,
  ScenarioEnvironment,
  ScenarioProject,
} from './types';

/**
 * An environment's deployments from the scenario (`deployments:` of an
 * environment in scenario.yaml): `{ iid, ref, sha, age, status, user, job:
 * { name, stage }, pipeline: <iid>, images: [...], retryOf: <iid> }`.
 * Each was made by a deploy job in a pipeline (GitLab creates the
 * deployment with the job, `Deployments::CreateForJobService`); `retryOf`
 * marks a re-run of an earlier deployment's job ("Rollback environment":
 * same job name, pipeline, ref and commit; the earlier job is then retried
 * and no longer retryable, `Ci::Processable#retryable?`). Ids are assigned
 * across the instance in creation order by `numberDeployments`.
 */

const STARTED_AFTER_MS = 5e3;
const FINISHED_AFTER_MS = 95e3;
const FINISHED: DeploymentStatus[] = ['SUCCESS', 'FAILED', 'CANCELED'];

/** The deploy job's status for the deployment's (`Deployment` follows its job). */
export function jobStatusOf(status: DeploymentStatus): JobStatus {
  const map: Record<DeploymentStatus, JobStatus> = {
    CREATED: 'created',
    RUNNING: 'running',
    SUCCESS: 'success',
    FAILED: 'failed',
    CANCELED: 'canceled',
    SKIPPED: 'skipped',
    BLOCKED: 'manual',
  };
  return map[status];
}

export function defaultJobName(environment: string): string {
  return `deploy-${environment.replace(/[^a-zA-Z0-9]+/g, '-')}`;
}

function iso(ms: number) {
  return new Date(ms).toISOString();
}

/** Timestamps of a deployment and its job from its status and creation. */
export function lifecycle(status: DeploymentStatus, createdMs: number) {
  const started = status !== 'CREATED' && status !== 'BLOCKED';
  const finished = FINISHED.includes(status);
  return {
    createdAt: iso(createdMs),
    startedAt: started ? iso(createdMs + STARTED_AFTER_MS) : undefined,
    finishedAt: finished ? iso(createdMs + FINISHED_AFTER_MS) : undefined,
    updatedAt: iso(createdMs + (finished ? FINISHED_AFTER_MS : 0)),
  };
}

export function toDeployments(
  raws: any[],
  env: Pick<ScenarioEnvironment, 'name'>,
  now: Date,
): ScenarioDeployment[] {
  const byIid = new Map<number, ScenarioDeployment>();
  const deployments = [...raws]
    .sort((a, b) => Number(a.iid) - Number(b.iid))
    .map(raw => {
      const earlier =
        raw.retryOf !== undefined ? byIid.get(Number(raw.retryOf)) : undefined;
      if (raw.retryOf !== undefined && !earlier) {
        throw new Error(
          `${env.name}: deployment ${raw.iid} is a rollback of ${raw.retryOf}, which is not an earlier deployment of it`,
        );
      }
      const status: DeploymentStatus = raw.status ?? 'SUCCESS';
      const times = lifecycle(
        status,
        now.getTime() - (parseAge(raw.age) ?? 3600e3),
      );
      const user = String(raw.user ?? earlier?.triggerer ?? 'root');
      const deployment: ScenarioDeployment = {
        id: 0,
        iid: Number(raw.iid),
        status,
        ref: String(raw.ref ?? earlier?.ref ?? 'main'),
        tag: raw.tag ?? earlier?.tag ?? false,
        sha: raw.sha ? commitIdOf(raw.sha) : earlier?.sha ?? '',
        createdAt: times.createdAt,
        updatedAt: times.updatedAt,
        ...(times.finishedAt ? { finishedAt: times.finishedAt } : {}),
        triggerer: user,
        job: {
          id: 0,
          name: String(
            raw.job?.name ?? earlier?.job.name ?? defaultJobName(env.name),
          ),
          stage: String(raw.job?.stage ?? earlier?.job.stage ?? 'deploy'),
          status: jobStatusOf(status),
          retried: false,
          pipeline: earlier
            ? earlier.job.pipeline
            : { id: 0, iid: Number(raw.pipeline ?? Number(raw.iid) * 3) },
          createdAt: times.createdAt,
          ...(times.startedAt ? { startedAt: times.startedAt } : {}),
          ...(times.finishedAt ? { finishedAt: times.finishedAt } : {}),
          user,
        },
        images: raw.images ?? earlier?.images ?? [],
      };
      if (!deployment.sha) {
        throw new Error(`${env.name}: deployment ${raw.iid} has no sha`);
      }
      if (earlier) earlier.job.retried = true;
      byIid.set(deployment.iid, deployment);
      return deployment;
    });
  return deployments.reverse();
}

/**
 * Gives deployments, jobs and pipelines their global ids in creation order
 * across the instance (ids in GitLab are global sequences; a project's
 * pipeline keeps one id for all its jobs).
 */
export function numberDeployments(projects: ScenarioProject[]) {
  const all = projects.flatMap(project =>
    project.environments.flatMap(env =>
      env.deployments.map(deployment => ({ project, deployment })),
    ),
  );
  all.sort(
    (a, b) =>
      a.deployment.createdAt.localeCompare(b.deployment.createdAt) ||
      a.deployment.iid - b.deployment.iid,
  );
  const pipelines = new Map<string, number>();
  all.forEach(({ project, deployment }, index) => {
    deployment.id = 40_000 + index;
    const key = `${project.id}/${deployment.job.pipeline.iid}`;
    if (!pipelines.has(key)) pipelines.set(key, 70_000 + pipelines.size);
    deployment.job.pipeline = {
      ...deployment.job.pipeline,
      id: pipelines.get(key)!,
    };
  });
  // A job keeps its own id; a rollback's job is a newer one.
  const jobs = all
    .map(a => a.deployment)
    .sort(
      (a, b) => a.job.createdAt.localeCompare(b.job.createdAt) || a.id - b.id,
    );
  jobs.forEach((deployment, index) => {
    deployment.job.id = 900_000 + index * 3;
  });
}

/**
 * Gives each project its repository (from its history file, else a linear
 * one through its deployed commits) and merge requests, checks that every
 * deployment names a commit of it, marks deployments of tags, then numbers
 * deployments, jobs and pipelines.
 */
export function attachRepositories(
  projects: ScenarioProject[],
  historyOf: (project: ScenarioProject) => any | undefined,
  now: Date,
) {
  for (const project of projects) {
    const deployments = project.environments.flatMap(e => e.deployments);
    const history = historyOf(project);
    if (history) {
      const loaded = loadHistory(history, project, now);
      project.repository = loaded.repository;
      project.mergeRequests = loaded.mergeRequests;
    } else {
      project.repository = linearHistory(project, deployments, now);
      project.mergeRequests = [];
    }
    for (const deployment of deployments) {
      if (!project.repository.commits.has(deployment.sha)) {
        throw new Error(
          `${project.fullPath}: deployment ${deployment.iid} deployed ${deployment.sha}, which its history does not have`,
        );
      }
      deployment.tag ||= project.repository.tags[deployment.ref] !== undefined;
    }
  }
  numberDeployments(projects);
}
