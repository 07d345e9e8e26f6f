import type { ActionsRegistryActionOptions } from '@backstage/backend-plugin-api/alpha';
import { HEALTH_STATUSES } from '@gitlab-env/backstage-plugin-gitlab-env-common';

/** The zod the actions registry hands each schema (its own copy: the plugin adds no zod). */
export type Zod = Parameters<
  ActionsRegistryActionOptions<any, any>['schema']['input']
>[0];

/**
 * Inputs every action of an environment takes, described for a model: what
 * to pass, in what form, and where to get it.
 */
export function environmentInput(z: Zod) {
  return {
    entityRef: z
      .string()
      .min(1)
      .max(400)
      .describe(
        'The catalog entity whose environments to use, as `kind:namespace/name` (e.g. `component:default/checkout-api`); a bare name is a Component in namespace `default`.',
      ),
    environment: z
      .string()
      .min(1)
      .max(24)
      .describe(
        "The environment's slug as gitlab-env list-environments gives it (e.g. `production`, `review-fix-cart-x1y2z3`), not its display name.",
      ),
  };
}

export function resourceInput(z: Zod) {
  return z
    .string()
    .min(3)
    .max(400)
    .describe(
      "The resource as the other answers name it: `Kind/name` in the environment's namespace, or `Kind/namespace/name` (e.g. `Deployment/web`, `Kustomization/flux-system/apps`).",
    );
}

export function pageInput(z: Zod, max: number, fallback: number) {
  return {
    offset: z
      .number()
      .int()
      .min(0)
      .max(100_000)
      .optional()
      .describe(
        'Skip this many (to read past `more` of a previous answer). Default 0.',
      ),
    limit: z
      .number()
      .int()
      .min(1)
      .max(max)
      .optional()
      .describe(`How many to list at most. Default ${fallback}.`),
  };
}

export function healthOutput(z: Zod) {
  return z
    .enum(HEALTH_STATUSES)
    .describe(
      'Argo CD health: Healthy, Progressing, Degraded, Suspended, Missing or Unknown.',
    );
}

export function countsOutput(z: Zod) {
  return z
    .record(z.number())
    .describe('Resources per health status, those at zero left out.');
}

/** The output of every write action: what the cluster did, and the command that does the same. */
export function writeOutput(z: Zod) {
  return z.object({
    outcome: z
      .enum(['changed', 'unchanged'])
      .describe(
        '`changed`: the cluster accepted the change; `unchanged`: it already was in that state.',
      ),
    message: z.string().describe('What was done, in a sentence.'),
    kubectl: z
      .string()
      .describe('The kubectl command that does the same, to show the user.'),
    previousReplicas: z
      .number()
      .optional()
      .describe('For a scale: the replicas before.'),
    warnings: z
      .array(z.string())
      .optional()
      .describe(
        'What the user should know, e.g. that an autoscaler will override a scale.',
      ),
  });
}
