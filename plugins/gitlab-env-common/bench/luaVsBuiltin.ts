/* eslint-disable no-console */
// The cost of an adopter's Argo CD Lua rule against the built-in rule of
// the same kind, on the same objects, in the same run (printed, never
// asserted). The Lua sandbox is the backend's: rules run on the server.
// eslint-disable-next-line @backstage/no-relative-monorepo-imports
import { LuaSandbox } from '../../gitlab-env-backend/src/config/argocd/luaSandbox';
// eslint-disable-next-line @backstage/no-relative-monorepo-imports
import { luaHealthRule } from '../../gitlab-env-backend/src/config/argocd/luaHealthRules';
import { computeHealth, createHealthRuleSet } from '../src/health';
import { loadArgocdCases } from '../src/health/__testUtils__/argocdCases';
import { KubernetesObject } from '../src/types';
import { generateEnvironment } from '../src/graph/testing/generateEnvironment';
import { time } from './timing';

// Written for this bench in the style of Argo CD's scripts, answering as
// the engine's built-in rules do.
const CERTIFICATE_LUA = `
hs = {}
if obj.status ~= nil and obj.status.conditions ~= nil then
  for i, condition in ipairs(obj.status.conditions) do
    if condition.type == "Issuing" and condition.status == "True" then
      hs.status = "Progressing"
      hs.message = condition.message
      return hs
    end
  end
  for i, condition in ipairs(obj.status.conditions) do
    local message = condition.message or ""
    if condition.type == "Ready" and condition.status == "False" and
      (condition.reason == "Issuing" or string.sub(message, 1, 29) == "Issuing certificate as Secret") then
      hs.status = "Progressing"
      hs.message = condition.message
      return hs
    end
    if condition.type == "Ready" and condition.status == "False" then
      hs.status = "Degraded"
      hs.message = condition.message
      return hs
    end
    if condition.type == "Ready" and condition.status == "True" then
      hs.status = "Healthy"
      hs.message = condition.message
      return hs
    end
  end
end
hs.status = "Progressing"
hs.message = "Waiting for certificate"
return hs
`;

const DEPLOYMENT_LUA = `
hs = {}
if obj.spec.paused == true then
  return { status = "Suspended", message = "Deployment is paused" }
end
local status = obj.status or {}
if (status.observedGeneration or 0) < (obj.metadata.generation or 0) then
  return { status = "Progressing", message = "Waiting for rollout to finish: observed deployment generation less than desired generation" }
end
local updated = status.updatedReplicas or 0
if obj.spec.replicas ~= nil and updated < obj.spec.replicas then
  return { status = "Progressing", message = "Waiting for rollout to finish: " .. updated .. " out of " .. obj.spec.replicas .. " new replicas have been updated..." }
end
if (status.replicas or 0) > updated then
  return { status = "Progressing", message = "Waiting for rollout to finish: old replicas are pending termination..." }
end
if (status.availableReplicas or 0) < updated then
  return { status = "Progressing", message = "Waiting for rollout to finish: updated replicas are still becoming available..." }
end
return { status = "Healthy" }
`;

interface Comparison {
  label: string;
  objects: KubernetesObject[];
  group: string;
  kind: string;
  script: string;
}

export async function compareLuaWithBuiltin(): Promise<void> {
  const sandbox = await LuaSandbox.create();
  const comparisons: Comparison[] = [
    {
      label: "cert-manager Certificate (Argo CD's cases)",
      objects: loadArgocdCases()
        .filter(c => c.source.endsWith('cert-manager.io/Certificate'))
        .map(c => c.object),
      group: 'cert-manager.io',
      kind: 'Certificate',
      script: CERTIFICATE_LUA,
    },
    {
      label: 'apps Deployment (generated, full objects)',
      objects: generateEnvironment(2000).filter(o => o.kind === 'Deployment'),
      group: 'apps',
      kind: 'Deployment',
      script: DEPLOYMENT_LUA,
    },
  ];
  const rows = [];
  for (const c of comparisons) {
    const rules = createHealthRuleSet([
      {
        group: c.group,
        kind: c.kind,
        rule: luaHealthRule(sandbox.compile('bench', c.script, true)),
      },
    ]);
    let agree = 0;
    for (const o of c.objects)
      if (computeHealth(o)?.status === computeHealth(o, { rules })?.status)
        agree++;
    // Enough passes over the objects that one timing is well above the clock's grain.
    const passes = Math.max(1, Math.ceil(2000 / c.objects.length));
    const builtin = time(() => {
      for (let p = 0; p < passes; p++)
        for (const o of c.objects) computeHealth(o);
    }, 15);
    const lua = time(() => {
      for (let p = 0; p < passes; p++)
        for (const o of c.objects) computeHealth(o, { rules });
    }, 15);
    const evaluations = passes * c.objects.length;
    rows.push({
      objects: c.label,
      count: c.objects.length,
      'same status': `${agree}/${c.objects.length}`,
      'built-in ms/object': (builtin / evaluations).toFixed(4),
      'Lua ms/object': (lua / evaluations).toFixed(4),
      'Lua / built-in': (lua / builtin).toFixed(1),
      'goal (Lua < 0.2 ms)': lua / evaluations < 0.2 ? 'met' : 'not met',
    });
  }
  console.log(
    '\nAn Argo CD Lua rule (wasmoon sandbox) against the built-in rule, same objects, same run:',
  );
  console.table(rows);
}
