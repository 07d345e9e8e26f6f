import { Entity } from '@backstage/catalog-model';
import {
  ActionTarget,
  GitlabEnvironment,
  hasRolloutHistory,
  kubectlRolloutHistoryCommand,
  workloadManager,
  workloadRevisions,
  WorkloadRevisionsResponse,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { CallOptions, GitlabEnvironmentsService } from '../facade';

/**
 * A pipeline deploys the environment when GitLab has deployments of it
 * and no Flux object applies it: it reverts a manual rollback.
 */
export function gitlabDeploys(
  environment: Pick<GitlabEnvironment, 'lastDeployment' | 'fluxResourcePath'>,
): boolean {
  return Boolean(environment.lastDeployment) && !environment.fluxResourcePath;
}

/**
 * Every Deployment, StatefulSet and DaemonSet of an environment with its
 * rollout history (the engine's workloadRevisions over the environment's
 * read: its ReplicaSets and ControllerRevisions), what each revision
 * changes against now, and who would revert a manual rollback.
 */
export async function workloadHistories(
  service: GitlabEnvironmentsService,
  entity: Entity,
  slug: string,
  options: CallOptions = {},
): Promise<WorkloadRevisionsResponse> {
  const read = await service.getEnvironmentResources(entity, slug, options);
  const objects = read.resources;
  return {
    workloads: objects.filter(hasRolloutHistory).map(workload => {
      const target: ActionTarget = {
        apiVersion: String(workload.apiVersion),
        kind: String(workload.kind),
        namespace: String(workload.metadata?.namespace),
        name: String(workload.metadata?.name),
      };
      const managedBy = workloadManager(workload, objects, {
        gitlabDeploys: gitlabDeploys(read.environment),
      });
      return {
        target,
        revisions: workloadRevisions(workload, objects),
        ...(managedBy && { managedBy }),
        historyCommand: kubectlRolloutHistoryCommand(target),
      };
    }),
    ...(read.errors.length > 0 && { errors: read.errors }),
  };
}
