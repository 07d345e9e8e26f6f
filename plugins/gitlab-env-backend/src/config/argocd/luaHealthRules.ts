import {
  HEALTH_STATUSES,
  HealthAssessment,
  HealthRule,
  HealthRuleRegistration,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { ArgocdHealthScript } from './argocdCustomizations';
import { LuaHealthScript, LuaSandbox } from './luaSandbox';

const VALID = new Set<string>(HEALTH_STATUSES);

/**
 * What a script's result means, as Argo CD's ExecuteHealthLua reads it: a
 * table with a known status; anything else is Unknown with Argo CD's
 * message (or the script's error), never a thrown error.
 */
export function luaHealthRule(script: LuaHealthScript): HealthRule {
  return (obj): HealthAssessment => {
    const result = script.evaluate(obj);
    if (!result.ok) return { status: 'Unknown', message: result.error };
    const { status, message } = result;
    if (typeof status !== 'string' || !VALID.has(status))
      return {
        status: 'Unknown',
        message: 'Lua returned an invalid health status',
      };
    if (message !== undefined && typeof message !== 'string')
      return {
        status: 'Unknown',
        message: `Lua returned a message that is not a string but a ${
          typeof message === 'object' ? 'table or function' : typeof message
        }`,
      };
    return message
      ? { status: status as HealthAssessment['status'], message }
      : { status: status as HealthAssessment['status'] };
  };
}

/** A rule for a script that does not compile: Unknown, saying why. */
function brokenRule(error: string): HealthRule {
  return () => ({ status: 'Unknown', message: error });
}

/**
 * The health rules of Argo CD scripts, compiled in one sandbox. A script
 * that does not compile (Lua 5.4 reads a little differently from Argo CD's
 * Lua 5.1) answers Unknown with Lua's message on every object of its kind
 * and is listed in `broken`, for the backend to log at start.
 */
export function compileLuaHealthRules(
  sandbox: LuaSandbox,
  scripts: ArgocdHealthScript[],
): { registrations: HealthRuleRegistration[]; broken: string[] } {
  const broken: string[] = [];
  const registrations = scripts.map(script => {
    const name = script.group
      ? `${script.group}/${script.kind} health.lua`
      : `${script.kind} health.lua`;
    let rule: HealthRule;
    try {
      rule = luaHealthRule(
        sandbox.compile(name, script.script, script.useOpenLibs),
      );
    } catch (error) {
      const message = (error as Error).message;
      broken.push(`${script.source}: ${message}`);
      rule = brokenRule(
        `The Argo CD health script does not compile: ${message}`,
      );
    }
    return {
      group: script.group,
      kind: script.kind,
      rule,
      source: script.source,
    };
  });
  return { registrations, broken };
}
