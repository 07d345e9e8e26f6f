/*
 * Example: a backend module adding a TypeScript health rule for a kind the
 * built-in rules do not know. Strimzi's Kafka reports `NotReady=True` while
 * it is being deployed *and* when it fails, which the generic rule cannot
 * tell apart, so it shows Unknown; this rule reads the reason.
 *
 * Add it next to the plugin in packages/backend/src/index.ts:
 *
 *   backend.add(import('@gitlab-env/backstage-plugin-gitlab-env-backend'));
 *   backend.add(gitlabEnvModuleStrimziHealth);
 *
 * Rules run on the server when an environment's graph is built; the page
 * shows their results with a "portal rule" note. A rule must not throw (a
 * throw shows as Unknown with the error's text) and may return undefined to
 * leave the object to the built-in rules.
 */
import { createBackendModule } from '@backstage/backend-plugin-api';
import { gitlabEnvHealthRulesExtensionPoint } from '@gitlab-env/backstage-plugin-gitlab-env-backend';
import type {
  HealthRule,
  KubernetesObject,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';

interface Condition {
  type?: unknown;
  status?: unknown;
  reason?: unknown;
  message?: unknown;
}

function conditionsOf(obj: KubernetesObject): Condition[] {
  const conditions = obj.status?.conditions;
  return Array.isArray(conditions)
    ? conditions.filter(c => typeof c === 'object' && c !== null)
    : [];
}

/** Reasons Strimzi gives a NotReady condition while it is still working. */
const IN_PROGRESS = new Set(['Creating', 'RollingUpdate', 'Scaling']);

export const strimziKafkaHealth: HealthRule = obj => {
  const conditions = conditionsOf(obj);
  const ready = conditions.find(c => c.type === 'Ready' && c.status === 'True');
  if (ready) return { status: 'Healthy' };
  const notReady = conditions.find(
    c => c.type === 'NotReady' && c.status === 'True',
  );
  const message =
    typeof notReady?.message === 'string' ? notReady.message : undefined;
  if (notReady && IN_PROGRESS.has(String(notReady.reason)))
    return { status: 'Progressing', message };
  if (notReady) return { status: 'Degraded', message };
  return { status: 'Progressing', message: 'Waiting for the Strimzi operator' };
};

export const gitlabEnvModuleStrimziHealth = createBackendModule({
  pluginId: 'gitlab-env',
  moduleId: 'strimzi-health',
  register(env) {
    env.registerInit({
      deps: { healthRules: gitlabEnvHealthRulesExtensionPoint },
      async init({ healthRules }) {
        healthRules.addHealthRule({
          group: 'kafka.strimzi.io',
          kind: 'Kafka',
          rule: strimziKafkaHealth,
        });
      },
    });
  },
});
