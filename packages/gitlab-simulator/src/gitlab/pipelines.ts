import {
  JobStatus,
  ScenarioDeployment,
  ScenarioEnvironment,
  ScenarioProject,
} from '../scenario/types';

/**
 * Where a project's deploy jobs live: each deployment's job, found by job
 * id, and the status of a pipeline from its latest jobs (retried ones do
 * not count; `Ci::Pipeline#update_legacy_status` → `Ci::HasStatus.composite_status`,
 * simplified to running › failed › canceled › success).
 */

export interface JobLocation {
  env: ScenarioEnvironment;
  deployment: ScenarioDeployment;
}

export function findJob(
  project: ScenarioProject,
  jobId: number,
): JobLocation | undefined {
  for (const env of project.environments) {
    const deployment = env.deployments.find(d => d.job.id === jobId);
    if (deployment) return { env, deployment };
  }
  return undefined;
}

const ACTIVE: JobStatus[] = ['created', 'pending', 'running'];

export function pipelineStatus(
  project: ScenarioProject,
  pipelineId: number,
): JobStatus {
  const jobs = project.environments
    .flatMap(env => env.deployments)
    .filter(d => d.job.pipeline.id === pipelineId && !d.job.retried)
    .map(d => d.job.status);
  if (jobs.some(s => ACTIVE.includes(s))) return 'running';
  if (jobs.includes('failed')) return 'failed';
  if (jobs.includes('canceled')) return 'canceled';
  if (jobs.includes('manual')) return 'manual';
  return 'success';
}
