import {
  HealthAssessment,
  KubernetesObject,
  computeHealth,
  createHealthRuleSet,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { compileLuaHealthRules, luaHealthRule } from './luaHealthRules';
import { LuaSandbox } from './luaSandbox';

// Scripts written for this test, in the style of Argo CD's, for kinds the
// engine has no rule of its own for.
const WIDGET_SCRIPT = `
hs = {}
if obj.status ~= nil then
  if obj.status.conditions ~= nil then
    for i, condition in ipairs(obj.status.conditions) do
      if condition.type == "Calibrated" and condition.status == "False" then
        hs.status = "Degraded"
        hs.message = condition.message
        return hs
      end
      if condition.type == "Calibrated" and condition.status == "True" then
        hs.status = "Healthy"
        hs.message = "Calibrated " .. table.getn(obj.status.conditions) .. " of " .. obj.spec.parts .. " parts"
        return hs
      end
    end
  end
end
hs.status = "Progressing"
hs.message = "Waiting for calibration"
return hs
`;

const widget = (conditions?: object[]): KubernetesObject => ({
  apiVersion: 'tools.example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w', namespace: 'shop', generation: 2 },
  spec: { parts: 3 },
  ...(conditions ? { status: { conditions } } : {}),
});

describe('Argo CD Lua health scripts in the sandbox', () => {
  let sandbox: LuaSandbox;
  const rule = (source: string, openLibs = false) =>
    luaHealthRule(sandbox.compile('test.lua', source, openLibs));

  beforeAll(async () => {
    sandbox = await LuaSandbox.create({
      maxInstructions: 200_000,
      maxMemoryBytes: 2 * 1024 * 1024,
    });
  });

  it("answers what an Argo CD script answers, with Lua 5.1's table.getn", () => {
    const widgetRule = rule(WIDGET_SCRIPT);
    expect(
      widgetRule(
        widget([{ type: 'Calibrated', status: 'True', message: 'done' }]),
      ),
    ).toEqual({ status: 'Healthy', message: 'Calibrated 1 of 3 parts' });
    expect(
      widgetRule(
        widget([{ type: 'Calibrated', status: 'False', message: 'jammed' }]),
      ),
    ).toEqual({ status: 'Degraded', message: 'jammed' });
    expect(widgetRule(widget())).toEqual({
      status: 'Progressing',
      message: 'Waiting for calibration',
    });
  });

  it("reads JSON as Argo CD's Lua does: 1-based arrays, integers, booleans, nil for null", () => {
    const probe = rule(`
      local c = obj.status.conditions
      return { status = "Healthy", message = table.concat({ #c, c[1].type, tostring(obj.spec.parts),
        tostring(obj.spec.ratio), tostring(obj.spec.on), tostring(obj.spec.none), unpack({ "u" }) }, ",") }`);
    const obj = widget([{ type: 'A', status: 'True' }]);
    obj.spec = { parts: 3, ratio: 0.5, on: true, none: null };
    expect(probe(obj)).toEqual({
      status: 'Healthy',
      message: '1,A,3,0.5,true,nil,u',
    });
  });

  it('stops a runaway loop at the instruction bound, as Unknown with the reason', () => {
    const runaway = rule('local n = 0 while true do n = n + 1 end');
    expect(runaway(widget())).toEqual({
      status: 'Unknown',
      message:
        'the script ran more than 200000 Lua instructions (gitlabEnv.health.argocd.maxInstructions)',
    });
    // The sandbox serves the next script as before.
    expect(rule(WIDGET_SCRIPT)(widget())?.status).toBe('Progressing');
  });

  it('stops a memory bomb at the memory bound and frees what it took', () => {
    const before = sandbox.memoryUsed();
    const bomb = rule(
      'local t = {} for i = 1, 1e8 do t[i] = { i, tostring(i) } end return { status = "Healthy" }',
    );
    expect(bomb(widget())).toEqual({
      status: 'Unknown',
      message:
        'the script used more than 2097152 bytes of memory (gitlabEnv.health.argocd.maxMemoryBytes)',
    });
    const strings = rule(
      'local s = string.rep("x", 1e9) return { status = "Healthy" }',
      true,
    );
    expect(strings(widget())?.message).toMatch(/more than 2097152 bytes/);
    expect(sandbox.memoryUsed()).toBeLessThan(before + 512 * 1024);
  });

  it("gives a script's runtime error as Unknown with Lua's message", () => {
    expect(
      rule('return { status = obj.spec.missing.field }')(widget()),
    ).toEqual({
      status: 'Unknown',
      message: "test.lua:1: attempt to index a nil value (field 'missing')",
    });
    expect(rule('error("no way")')(widget())).toEqual({
      status: 'Unknown',
      message: 'test.lua:1: no way',
    });
  });

  it("reads a bad return as Argo CD does, with Argo CD's messages", () => {
    expect(rule('return "Healthy"')(widget())).toEqual({
      status: 'Unknown',
      message: 'expect table output from Lua script, not string',
    });
    expect(rule('local x = 1')(widget())).toEqual({
      status: 'Unknown',
      message: 'expect table output from Lua script, not nil',
    });
    expect(rule('return { status = "Fine" }')(widget())).toEqual({
      status: 'Unknown',
      message: 'Lua returned an invalid health status',
    });
    expect(rule('return {}')(widget())).toEqual({
      status: 'Unknown',
      message: 'Lua returned an invalid health status',
    });
    expect(rule('return { status = "Missing" }')(widget())).toEqual({
      status: 'Missing',
    });
  });

  it('gives no I/O, no code loading and no debug library; string and math only with useOpenLibs', () => {
    const reach = rule(`
      local seen = {}
      for _, name in ipairs({ "io", "debug", "load", "loadstring", "dofile", "loadfile", "collectgarbage", "string", "math" }) do
        if _G ~= nil or rawget(_ENV or {}, name) ~= nil then end
      end
      return { status = "Healthy", message = table.concat({ type(io), type(debug), type(load), type(dofile),
        type(loadfile), type(collectgarbage), type(os.execute), type(os.getenv), type(os.time), type(string), type(math) }, ",") }`);
    expect(reach(widget())?.message).toBe(
      'nil,nil,nil,nil,nil,nil,nil,nil,function,nil,nil',
    );
    const open = rule(
      'return { status = "Healthy", message = string.upper("ok") .. math.floor(2.5) .. type(io) }',
      true,
    );
    expect(open(widget())).toEqual({ status: 'Healthy', message: 'OK2nil' });
    const requireOs = rule(
      'local os = require("os") return { status = "Healthy", message = type(os.time()) }',
    );
    expect(requireOs(widget())?.message).toBe('number');
    expect(rule('local io = require("io")')(widget())?.message).toBe(
      "test.lua:1: module 'io' not found",
    );
  });

  it('gives each run fresh globals and keeps library tables read-only', () => {
    const counter = rule(
      'count = (count or 0) + 1 return { status = "Healthy", message = tostring(count) }',
    );
    expect(counter(widget())?.message).toBe('1');
    expect(counter(widget())?.message).toBe('1');
    expect(rule('table.insert = nil')(widget())?.message).toBe(
      'test.lua:1: a library table is read-only here',
    );
    expect(
      rule(
        'return { status = "Healthy", message = tostring(getmetatable("")) }',
        true,
      )(widget())?.message,
    ).toBe('false');
  });

  it('names a script that does not compile and answers Unknown for its kind', () => {
    const { registrations, broken } = compileLuaHealthRules(sandbox, [
      {
        group: 'tools.example.com',
        kind: 'Widget',
        script: 'if then',
        useOpenLibs: false,
        source:
          'gitlabEnv.health.argocd["resource.customizations.health.tools.example.com_Widget"]',
      },
    ]);
    expect(broken).toEqual([
      `gitlabEnv.health.argocd["resource.customizations.health.tools.example.com_Widget"]: tools.example.com/Widget health.lua:1: unexpected symbol near 'then'`,
    ]);
    expect(registrations[0].rule(widget())).toEqual({
      status: 'Unknown',
      message:
        "The Argo CD health script does not compile: tools.example.com/Widget health.lua:1: unexpected symbol near 'then'",
    });
  });

  it('wins over the built-in rule of its kind, exactly or by a wildcard, through computeHealth', () => {
    const { registrations } = compileLuaHealthRules(sandbox, [
      {
        group: 'apps',
        kind: 'Deployment',
        script:
          'return { status = "Suspended", message = "frozen " .. obj.metadata.name }',
        useOpenLibs: false,
        source: 'test',
      },
      {
        group: '*.example.com',
        kind: '*',
        script: WIDGET_SCRIPT,
        useOpenLibs: false,
        source: 'test',
      },
    ]);
    const rules = createHealthRuleSet(registrations);
    const deployment: KubernetesObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', generation: 1 },
      spec: { replicas: 1 },
      status: {
        observedGeneration: 1,
        replicas: 1,
        updatedReplicas: 1,
        availableReplicas: 1,
      },
    };
    expect(computeHealth(deployment, { rules })).toEqual<HealthAssessment>({
      status: 'Suspended',
      message: 'frozen web',
      origin: 'adopter',
    });
    expect(computeHealth(widget(), { rules })).toEqual<HealthAssessment>({
      status: 'Progressing',
      message: 'Waiting for calibration',
      origin: 'adopter',
    });
    // Not matched by the pattern: the engine's own answer.
    expect(computeHealth(deployment)?.status).toBe('Healthy');
  });
});
