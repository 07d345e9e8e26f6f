import type { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import { gitlabEnvDeploymentRollbackPermission } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { failure } from '../errors';
import {
  DeploymentParams,
  gitlabRollbackRoute,
  HistoryRouterOptions,
} from '../history';
import {
  auditedEntity,
  auditText,
  entityPathParams,
  RequestPipeline,
  RouteContext,
  RouteCore,
} from '../http/pipeline';
import { quote } from '../validation';
import { withActionErrors } from './actionErrors';
import { actionCall } from './calls';
import { environmentInput } from './schemas';

export interface GitlabRollbackDeps
  extends Pick<HistoryRouterOptions, 'history' | 'onRolledBack' | 'logger'> {
  pipeline: RequestPipeline;
}

const DEPLOYMENT_NUMBER = /^#?(\d{1,19})$/;
/** The deployments looked through for a number: 5 pages of 100, newest first. */
const PAGES = 5;
const PAGE = 100;

/** GitLab's id of the environment's deployment numbered `iid`, from its newest deployments. */
async function deploymentIdOf(
  deps: GitlabRollbackDeps,
  context: RouteContext<unknown>,
  iid: string,
): Promise<string> {
  let cursor: string | undefined;
  for (let page = 0; page < PAGES; page++) {
    const found = await deps.history.page(
      context.entity,
      context.environment.slug,
      { cursor, limit: PAGE, located: context.located },
    );
    const deployment = found.deployments.find(d => d.iid === iid);
    if (deployment) return deployment.id;
    cursor = found.nextCursor;
    if (!cursor) break;
  }
  throw failure(
    'DEPLOYMENT_NOT_FOUND',
    `Environment ${
      context.environment.name
    } has no deployment #${iid} among its ${PAGES * PAGE} newest.`,
    {
      hint: 'Take the number from get-recent-changes (`Deployment #212 deployed …`).',
    },
  );
}

/**
 * The GitLab rollback route's core (gitlabRollbackRoute) for a deployment
 * named by its number, as GitLab's pages and the recent changes show it:
 * the same spec (permission, located, audited as
 * `environment-gitlab-rollback`, the number in the record), the number
 * found among the environment's deployments, then the same retry.
 */
function numberedRollback(
  deps: GitlabRollbackDeps,
): RouteCore<DeploymentParams & { iid: string }, any> {
  const core = gitlabRollbackRoute(deps);
  return {
    spec: {
      ...core.spec,
      audit: {
        ...core.spec.audit,
        meta: raw => ({
          ...auditedEntity(raw),
          deployment: auditText(raw.query.deployment, 20) ?? null,
        }),
      },
      params: raw => {
        const target = entityPathParams(raw);
        const match = DEPLOYMENT_NUMBER.exec(String(raw.query.deployment));
        if (!match)
          throw failure(
            'INVALID_REQUEST',
            `${quote(raw.query.deployment)} is not a deployment number.`,
            { hint: 'Pass the number GitLab shows, e.g. 212 for #212.' },
          );
        return {
          ...target,
          slug: target.slug!,
          deploymentId: '',
          iid: match[1],
        };
      },
    },
    run: async context => {
      const deploymentId = await deploymentIdOf(
        deps,
        context,
        context.params.iid,
      );
      context.note({ deploymentId });
      return core.run({
        ...context,
        params: { ...context.params, deploymentId },
      });
    },
    outcome: core.outcome,
  };
}

/**
 * GitLab's rollback for assistants: re-run the deploy job of an earlier
 * successful deployment (as GitLab's "Rollback environment" does),
 * destructive, as the caller through the request pipeline.
 */
export function registerGitlabRollback(
  registry: ActionsRegistryService,
  deps: GitlabRollbackDeps,
) {
  const core = numberedRollback(deps);
  registry.register({
    name: 'rollback-deployment',
    title: 'Roll an environment back to an earlier GitLab deployment',
    description: `Re-runs the deploy job of an earlier successful deployment of the environment, as GitLab's "Rollback environment" does: a new deployment of that commit. Take the deployment's number from get-recent-changes (\`Deployment #212 deployed v3.8.2\`). Runs as the calling user: refused without the ${gitlabEnvDeploymentRollbackPermission.name} permission on the entity; GitLab refuses on a protected environment the portal's rollback token may not deploy to, or a job already retried. Answers the new job and the same request as a curl command. For a GitOps (Flux) environment, rollback-workload or a revert in the repository is what lasts.`,
    attributes: { destructive: true, readOnly: false, idempotent: false },
    schema: {
      input: z =>
        z.object({
          ...environmentInput(z),
          deployment: z
            .string()
            .min(1)
            .max(21)
            .describe(
              'The deployment to go back to, by its number as GitLab shows it: `212` or `#212`.',
            ),
        }),
      output: z =>
        z.object({
          message: z.string().describe('What GitLab started, in a sentence.'),
          job: z
            .object({
              id: z.string(),
              name: z.string().optional(),
              status: z.string().optional(),
              webUrl: z.string().optional(),
            })
            .describe('The new deploy job.'),
          command: z
            .string()
            .describe('The same request by hand (curl), to show the user.'),
        }),
    },
    action: ({ input, credentials }) =>
      withActionErrors(async () => {
        const { job, message, command } = await deps.pipeline.answer(
          core,
          actionCall('rollback-deployment', credentials, input, {
            query: { deployment: input.deployment },
          }),
        );
        return {
          output: {
            message,
            job: {
              id: job.id,
              name: job.name,
              status: job.status,
              webUrl: job.webUrl,
            },
            command,
          },
        };
      }),
  });
}
