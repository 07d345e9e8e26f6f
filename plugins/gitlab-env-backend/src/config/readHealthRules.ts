import { Config } from '@backstage/config';
import {
  HealthRuleRegistration,
  parseDeclarativeHealthRules,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { readFile } from 'fs/promises';
import { resolve } from 'path';
import {
  argocdConfigMapData,
  readArgocdHealthScripts,
} from './argocd/argocdCustomizations';
import { compileLuaHealthRules } from './argocd/luaHealthRules';
import { LuaSandbox } from './argocd/luaSandbox';

/** Adopters' health rules from app-config, and what is wrong with any of them. */
export interface HealthRulesFromConfig {
  registrations: HealthRuleRegistration[];
  /** Argo CD scripts that do not compile: each answers Unknown, saying why. */
  warnings: string[];
}

const ARGOCD = 'gitlabEnv.health.argocd';

/**
 * `gitlabEnv.health.rules` (declarative rules) and `gitlabEnv.health.argocd`
 * (Argo CD's Lua health scripts, from an argocd-cm manifest file and/or
 * argocd-cm keys written inline), validated at start: a wrong declarative
 * rule or an unreadable key stops the backend with every problem named.
 */
export async function readHealthRules(
  root: Config,
): Promise<HealthRulesFromConfig> {
  const declarative = parseDeclarativeHealthRules(
    root.getOptional('gitlabEnv.health.rules'),
    'gitlabEnv.health.rules',
  );
  const argocd = root.getOptionalConfig(ARGOCD);
  if (!argocd) return { registrations: declarative, warnings: [] };

  let data: Record<string, unknown> = {};
  const file = argocd.getOptionalString('configMapFile');
  if (file) {
    const path = resolve(file);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new Error(
        `${ARGOCD}.configMapFile: cannot read ${path} (${
          (error as Error).message
        }); the path is relative to the backend's working directory`,
      );
    }
    data = argocdConfigMapData(text, `${ARGOCD}.configMapFile ${path}`);
  }
  const inline = argocd.getOptional('data');
  if (inline !== undefined) {
    if (typeof inline !== 'object' || inline === null || Array.isArray(inline))
      throw new Error(
        `${ARGOCD}.data must be a map of argocd-cm keys, such as resource.customizations.health.<group>_<kind>`,
      );
    // Inline keys win over the file's, as a later app-config wins.
    data = { ...data, ...(inline as Record<string, unknown>) };
  }
  const scripts = readArgocdHealthScripts(data, ARGOCD);
  if (scripts.length === 0) return { registrations: declarative, warnings: [] };
  const sandbox = await LuaSandbox.create({
    maxInstructions: argocd.getOptionalNumber('maxInstructions'),
    maxMemoryBytes: argocd.getOptionalNumber('maxMemoryBytes'),
  });
  const { registrations, broken } = compileLuaHealthRules(sandbox, scripts);
  return {
    registrations: [...declarative, ...registrations],
    warnings: broken.map(
      problem =>
        `An Argo CD health script does not compile and answers Unknown: ${problem}`,
    ),
  };
}
