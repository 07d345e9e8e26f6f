// Adopters' Argo CD health scripts run in Lua 5.4 compiled to WebAssembly
// (npm `wasmoon`), not in a Lua written in JavaScript (`fengari`): wasmoon
// is the reference C implementation, so a script behaves as Lua does, and
// it lets the host cap the memory of the Lua state (a custom allocator)
// and count instructions (a count hook); fengari cannot cap memory, and its
// 32-bit integers differ from Lua's. Argo CD runs Lua 5.1 (gopher-lua): the
// 5.1 functions scripts use (unpack, table.getn, ...) are provided here.
import type { LuaEngine } from 'wasmoon';

// wasmoon's Emscripten glue imports Node's 'module' dynamically, which a
// Jest VM refuses (and Jest's own 'module' keeps the load in its VM): Node's
// own require loads it the same way everywhere.
const nodeModule = process.getBuiltinModule(
  'module',
) as typeof import('module');
const { LuaFactory } = nodeModule.createRequire(__filename)(
  'wasmoon',
) as typeof import('wasmoon');

/** The bounds of one evaluation. */
export interface LuaLimits {
  /** Lua VM instructions one evaluation may run (default 1,000,000). */
  maxInstructions: number;
  /** Bytes the Lua state may grow by beyond its libraries and scripts (default 8 MiB). */
  maxMemoryBytes: number;
}

export const DEFAULT_LUA_LIMITS: LuaLimits = {
  maxInstructions: 1_000_000,
  maxMemoryBytes: 8 * 1024 * 1024,
};

/** What a script returned, before it is read as a health assessment. */
export type LuaScriptResult =
  | { ok: true; status: unknown; message: unknown }
  | { ok: false; error: string };

/** A script compiled in the sandbox, ready to evaluate objects. */
export interface LuaHealthScript {
  /** Runs the script with `obj` set to `object`; never throws. */
  evaluate(object: unknown): LuaScriptResult;
}

// Lua's C API constants (lua.h, 5.4).
const LUA_REGISTRYINDEX = -1001000;
const LUA_OK = 0;
const LUA_ERRMEM = 4;
const LUA_MASKCOUNT = 8;
const LUA_TNIL = 0;
const LUA_TBOOLEAN = 1;
const LUA_TNUMBER = 3;
const LUA_TSTRING = 4;
const LUA_TTABLE = 5;
const TYPE_NAMES = [
  'nil',
  'boolean',
  'userdata',
  'number',
  'string',
  'table',
  'function',
  'userdata',
  'thread',
];
/** The count hook runs every this many instructions. */
const HOOK_EVERY = 1000;
/** Deeper values reach scripts as nil: no Kubernetes object nests this deep. */
const MAX_DEPTH = 64;

/**
 * Sets up the sandbox once, with every library open, then keeps only what
 * Argo CD gives custom scripts: base, table, package (`require` of the
 * libraries below) and a safe os (time, date); string, math and coroutine
 * too with useOpenLibs. Never io, debug, load or file functions. Returns
 * `compile(name, source, openLibs)`, which gives the runner of one script:
 * each run gets fresh globals holding `obj`, as Argo CD's fresh VM does.
 */
const SETUP = String.raw`
local setmetatable, load, error, rawget = setmetatable, load, error, rawget
local setupvalue = debug.setupvalue
local function readonly(lib)
  return setmetatable({}, {
    __index = lib,
    __newindex = function() error('a library table is read-only here', 2) end,
    __metatable = false,
  })
end
local function copy(from, into)
  for k, v in pairs(from) do into[k] = v end
  return into
end
local tbl = copy(table, {})
tbl.getn = function(t) return #t end
tbl.maxn = function(t)
  local n = 0
  for k in pairs(t) do
    if type(k) == 'number' and k > n then n = k end
  end
  return n
end
tbl.setn = function() end
local str = copy(string, {})
str.gfind = string.gmatch
local mth = copy(math, {})
mth.pow = function(x, y) return x ^ y end
mth.log10 = function(x) return math.log(x, 10) end
mth.ldexp = function(m, e) return m * 2.0 ^ e end
mth.mod = math.fmod
mth.cosh = function(x) return (math.exp(x) + math.exp(-x)) / 2 end
mth.sinh = function(x) return (math.exp(x) - math.exp(-x)) / 2 end
mth.tanh = function(x) local a, b = math.exp(x), math.exp(-x) return (a - b) / (a + b) end
mth.atan2 = function(y, x) return math.atan(y, x) end
local os_safe = readonly({ time = os.time, date = os.date })
debug.getmetatable('').__metatable = false

local function globals(open)
  local g = {
    assert = assert, error = error, ipairs = ipairs, next = next,
    pairs = pairs, pcall = pcall, rawequal = rawequal, rawget = rawget,
    rawset = rawset, rawlen = rawlen, select = select, type = type,
    setmetatable = setmetatable, getmetatable = getmetatable,
    tonumber = tonumber, tostring = tostring, xpcall = xpcall,
    unpack = table.unpack, print = function() end, _VERSION = 'Lua 5.1',
    table = readonly(tbl), os = os_safe,
  }
  local modules = { table = g.table, os = os_safe }
  if open then
    g.string = readonly(str)
    g.math = readonly(mth)
    g.coroutine = readonly(coroutine)
    modules.string, modules.math, modules.coroutine = g.string, g.math, g.coroutine
  end
  g.require = function(name)
    local m = modules[name]
    if m == nil then error("module '" .. tostring(name) .. "' not found", 2) end
    return m
  end
  return { __index = g, __metatable = false }
end
local CLOSED, OPEN = globals(false), globals(true)

local function compile(name, source, open)
  local meta = open and OPEN or CLOSED
  local chunk, err = load(source, '=' .. name, 't', {})
  if not chunk then return nil, err end
  return function(obj)
    setupvalue(chunk, 1, setmetatable({ obj = obj }, meta))
    return chunk()
  end
end
local collect = collectgarbage
return compile, function() collect() end
`;

type LuaModule = {
  _lua_createtable(L: number, arrays: number, records: number): void;
  _lua_pushlstring(L: number, pointer: number, length: number): number;
  _lua_pushinteger(L: number, value: bigint): void;
  _lua_pushnumber(L: number, value: number): void;
  _lua_pushboolean(L: number, value: number): void;
  _lua_pushnil(L: number): void;
  _lua_rawset(L: number, index: number): void;
  _lua_rawget(L: number, index: number): number;
  _lua_rawseti(L: number, index: number, n: bigint): void;
  _lua_checkstack(L: number, n: number): number;
  _lua_settop(L: number, index: number): void;
  _lua_gettop(L: number): number;
  _lua_type(L: number, index: number): number;
  _lua_rawgeti(L: number, index: number, n: bigint): number;
  _lua_pcallk(
    L: number,
    args: number,
    results: number,
    handler: number,
    ctx: number,
    k: number,
  ): number;
  _lua_sethook(L: number, hook: number, mask: number, count: number): void;
  _lua_error(L: number): number;
  _lua_getfield(L: number, index: number, key: number): number;
  _malloc(size: number): number;
  _free(pointer: number): void;
  stringToUTF8(text: string, pointer: number, max: number): void;
  lengthBytesUTF8(text: string): number;
  UTF8ToString(pointer: number): string;
  addFunction(fn: (...args: number[]) => number | void, sig: string): number;
};

/**
 * One Lua state holding every adopter's script, evaluated one at a time
 * (JavaScript runs one at a time anyway), each run bounded in instructions
 * and in memory.
 */
export class LuaSandbox {
  private readonly L: number;
  private readonly module: LuaModule;
  private readonly compileRef: bigint;
  private readonly collectRef: bigint;
  private scratch = { pointer: 0, size: 0 };
  private executed = 0;
  private readonly hook: number;

  static async create(
    limits: { [K in keyof LuaLimits]?: number | undefined } = {},
  ): Promise<LuaSandbox> {
    const bounds = { ...DEFAULT_LUA_LIMITS };
    for (const key of Object.keys(bounds) as Array<keyof LuaLimits>) {
      const value = limits[key];
      if (value === undefined) continue;
      if (!Number.isSafeInteger(value) || value <= 0)
        throw new Error(
          `gitlabEnv.health.argocd.${key} must be a positive whole number, got ${value}`,
        );
      bounds[key] = value;
    }
    const engine = await new LuaFactory().createEngine({
      openStandardLibs: true,
      injectObjects: false,
      enableProxy: false,
      traceAllocations: true,
    });
    return new LuaSandbox(engine, bounds);
  }

  private constructor(
    private readonly engine: LuaEngine,
    readonly limits: LuaLimits,
  ) {
    const global = engine.global;
    this.L = global.address;
    this.module = global.lua.module as unknown as LuaModule;
    const L = this.L;
    global.loadString(SETUP, 'gitlab-env lua sandbox');
    global.runSync();
    // Both stay in the registry, out of reach of scripts.
    this.collectRef = BigInt(global.lua.luaL_ref(L, LUA_REGISTRYINDEX));
    this.compileRef = BigInt(global.lua.luaL_ref(L, LUA_REGISTRYINDEX));
    global.lua.lua_settop(L, 0);
    // What remains of the full libraries is garbage once SETUP is done.
    this.collectGarbage();
    this.hook = this.module.addFunction((state: number) => {
      this.executed += HOOK_EVERY;
      if (this.executed > this.limits.maxInstructions) {
        this.pushString(
          state,
          `the script ran more than ${this.limits.maxInstructions} Lua instructions (gitlabEnv.health.argocd.maxInstructions)`,
        );
        this.module._lua_error(state);
      }
    }, 'vii');
  }

  private collectGarbage(): void {
    const { L, module } = this;
    module._lua_settop(L, 0);
    module._lua_rawgeti(L, LUA_REGISTRYINDEX, this.collectRef);
    module._lua_pcallk(L, 0, 0, 0, 0, 0);
    module._lua_settop(L, 0);
  }

  /** Memory the Lua state holds now, in bytes. */
  memoryUsed(): number {
    return this.engine.global.getMemoryUsed();
  }

  /**
   * Compiles a script. Throws with Lua's message on a syntax error (a
   * config problem, reported at start); the name appears in runtime errors
   * (`<name>:<line>: ...`).
   */
  compile(name: string, source: string, openLibs: boolean): LuaHealthScript {
    const { L, module } = this;
    this.withinMemory(() => {
      module._lua_settop(L, 0);
      module._lua_rawgeti(L, LUA_REGISTRYINDEX, this.compileRef);
      this.pushString(L, name);
      this.pushString(L, source);
      module._lua_pushboolean(L, openLibs ? 1 : 0);
      const code = module._lua_pcallk(L, 3, 2, 0, 0, 0);
      if (code !== LUA_OK) throw new Error(this.errorAt(-1, code));
    });
    if (module._lua_type(L, 1) !== 6 /* function */) {
      const error = this.stringAt(2) ?? 'the script does not compile';
      module._lua_settop(L, 0);
      throw new Error(error);
    }
    module._lua_settop(L, 1);
    const ref = BigInt(
      this.engine.global.lua.luaL_ref(L, LUA_REGISTRYINDEX) as number,
    );
    return { evaluate: object => this.run(ref, object) };
  }

  private run(ref: bigint, object: unknown): LuaScriptResult {
    const { L, module } = this;
    try {
      module._lua_settop(L, 0);
      module._lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
      // Outside the memory cap: an allocation refused outside a protected
      // call would abort the state. The object's size is the API server's.
      if (!this.pushJson(object, 0))
        return { ok: false, error: 'the object nests too deep for Lua' };
      let code = LUA_OK;
      this.executed = 0;
      module._lua_sethook(L, this.hook, LUA_MASKCOUNT, HOOK_EVERY);
      this.withinMemory(() => {
        code = module._lua_pcallk(L, 1, 1, 0, 0, 0);
      });
      module._lua_sethook(L, 0, 0, 0);
      if (code !== LUA_OK) {
        const error = this.errorAt(-1, code);
        // A script that hit the cap leaves it full of garbage: free it now.
        if (code === LUA_ERRMEM) this.collectGarbage();
        return { ok: false, error };
      }
      const type = module._lua_type(L, -1);
      if (type !== LUA_TTABLE)
        return {
          ok: false,
          error: `expect table output from Lua script, not ${
            TYPE_NAMES[type] ?? 'unknown'
          }`,
        };
      return {
        ok: true,
        status: this.field('status'),
        message: this.field('message'),
      };
    } finally {
      module._lua_settop(L, 0);
    }
  }

  /**
   * `t[key]` of the table on top, if a scalar. A raw read: a script's
   * __index metamethod does not run outside the bounds.
   */
  private field(key: string): unknown {
    const { L, module } = this;
    this.pushString(L, key);
    const type = module._lua_rawget(L, -2);
    const value = this.scalarAt(-1, type);
    module._lua_settop(L, -2);
    return value;
  }

  private scalarAt(index: number, type: number): unknown {
    if (type === LUA_TSTRING) return this.stringAt(index);
    if (type === LUA_TNUMBER)
      return Number(
        (
          this.engine.global.lua as unknown as {
            lua_tonumberx(L: number, i: number, n: null): number;
          }
        ).lua_tonumberx(this.L, index, null),
      );
    if (type === LUA_TBOOLEAN)
      return (
        (
          this.engine.global.lua as unknown as {
            lua_toboolean(L: number, i: number): number;
          }
        ).lua_toboolean(this.L, index) !== 0
      );
    if (type === LUA_TNIL) return undefined;
    return { luaType: TYPE_NAMES[type] ?? 'unknown' };
  }

  private stringAt(index: number): string | undefined {
    return (
      this.engine.global.lua as unknown as {
        lua_tolstring(L: number, i: number, len: null): string | undefined;
      }
    ).lua_tolstring(this.L, index, null);
  }

  private errorAt(index: number, code: number): string {
    if (code === LUA_ERRMEM) return this.memoryMessage();
    const type = this.module._lua_type(this.L, index);
    if (type === LUA_TSTRING || type === LUA_TNUMBER)
      return this.stringAt(index) ?? 'the script failed';
    return `the script raised an error object of type ${
      TYPE_NAMES[type] ?? 'unknown'
    }`;
  }

  private memoryMessage(): string {
    return `the script used more than ${this.limits.maxMemoryBytes} bytes of memory (gitlabEnv.health.argocd.maxMemoryBytes)`;
  }

  /** Runs `work` with the state allowed to grow by maxMemoryBytes from now. */
  private withinMemory(work: () => void): void {
    const global = this.engine.global;
    global.setMemoryMax(global.getMemoryUsed() + this.limits.maxMemoryBytes);
    try {
      work();
    } finally {
      global.setMemoryMax(undefined);
    }
  }

  private ensureScratch(size: number): void {
    if (this.scratch.size >= size) return;
    if (this.scratch.pointer) this.module._free(this.scratch.pointer);
    const grown = Math.max(size, this.scratch.size * 2, 256);
    this.scratch = { pointer: this.module._malloc(grown), size: grown };
  }

  private pushString(L: number, text: string): void {
    const length = this.module.lengthBytesUTF8(text);
    this.ensureScratch(length + 1);
    this.module.stringToUTF8(text, this.scratch.pointer, length + 1);
    this.module._lua_pushlstring(L, this.scratch.pointer, length);
  }

  /**
   * Pushes JSON data as Lua values, as Argo CD decodes an object: arrays
   * as 1-based sequences, integral numbers as integers. Returns false when
   * Lua ran out of memory (its allocator refused).
   */
  private pushJson(value: unknown, depth: number): boolean {
    const { L, module } = this;
    if (depth % 16 === 0 && !module._lua_checkstack(L, 40)) return false;
    switch (typeof value) {
      case 'string':
        this.pushString(L, value);
        return true;
      case 'number':
        if (Number.isSafeInteger(value))
          module._lua_pushinteger(L, BigInt(value));
        else module._lua_pushnumber(L, value);
        return true;
      case 'boolean':
        module._lua_pushboolean(L, value ? 1 : 0);
        return true;
      case 'object':
        break;
      default:
        module._lua_pushnil(L);
        return true;
    }
    if (value === null || depth >= MAX_DEPTH) {
      module._lua_pushnil(L);
      return true;
    }
    if (Array.isArray(value)) {
      module._lua_createtable(L, value.length, 0);
      for (let i = 0; i < value.length; i++) {
        if (!this.pushJson(value[i], depth + 1)) return false;
        module._lua_rawseti(L, -2, BigInt(i + 1));
      }
      return true;
    }
    const record = value as Record<string, unknown>;
    module._lua_createtable(L, 0, 8);
    for (const key in record) {
      if (!Object.prototype.hasOwnProperty.call(record, key)) continue;
      // Never read by a health check, often most of an object.
      if (depth === 1 && key === 'managedFields') continue;
      this.pushString(L, key);
      if (!this.pushJson(record[key], depth + 1)) return false;
      module._lua_rawset(L, -3);
    }
    return true;
  }
}
