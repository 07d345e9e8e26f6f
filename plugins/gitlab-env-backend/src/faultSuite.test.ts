import {
  EntityEnvironmentsResponse,
  HealthSummary,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  RunningSimulator,
  startGitlabSimulator,
} from '@gitlab-env/gitlab-simulator';
import { Server } from 'http';
import request from 'supertest';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  startBackendOnSimulator,
  TEST_KAS_TUNNELS,
} from './__testUtils__/backendOnSimulator';
import {
  badgesOf,
  classify,
  FAULT_MODES,
  faultSuiteEntities,
  faultSuiteScenario,
  ciAccessAnswerProblem,
  HOSTILE_PATTERN_REQUESTS,
  PLAIN_PATTERN_REQUESTS,
  isDefiniteButWrong,
  knobsOf,
  Outcome,
  secretValues,
  SUITE_SETTINGS,
} from './__testUtils__/faultSuite';

/**
 * Every simulator fault knob against the backend over real sockets: each
 * answer is typed (ok, partial or a typed error, never an untyped one),
 * no badge claims a definite health the full data does not have, nothing
 * crashes, no Secret value leaks, and memory stays bounded. The
 * fault-suite script runs the same modes 200 requests each and prints the
 * figures.
 */

jest.setTimeout(120_000);

const scenario = faultSuiteScenario();
const entities = faultSuiteEntities(scenario);
const secrets = secretValues(scenario);

let simulator: RunningSimulator;
let server: Server;
const crashes: unknown[] = [];
const recordCrash = (error: unknown) => crashes.push(error);

/** What the entity pages ask: each entity's list with health, each environment's resources. */
let targets: string[] = [];
/** The badge of each environment without faults. */
const baseline = new Map<string, HealthSummary>();
/** The typed error code of each target answered with one without faults (an agent not shared, not connected). */
const typedWithoutFaults = new Map<string, string>();

/** The code of a typed error answer; undefined for any other answer. */
function typedCodeOf(res: request.Response): string | undefined {
  return classify(res.status, res.body) === 'typed error'
    ? res.body.gitlabEnv.code
    : undefined;
}

beforeAll(async () => {
  process.on('unhandledRejection', recordCrash);
  process.on('uncaughtException', recordCrash);
  simulator = await startGitlabSimulator({
    port: 0,
    scenario,
    tickMs: 0,
    kasTunnels: TEST_KAS_TUNNELS,
  });
  ({ server } = await startBackendOnSimulator(simulator, {
    entities,
    gitlabEnv: SUITE_SETTINGS,
  }));
  for (const entity of entities) {
    const base = `/api/gitlab-env/entity/default/component/${entity.metadata.name}`;
    const list = await request(server).get(`${base}/environments`);
    targets.push(`${base}/environments?withHealth=true`);
    for (const environment of (list.body as EntityEnvironmentsResponse)
      .environments) {
      if (environment.agent && environment.namespace)
        targets.push(`${base}/environments/${environment.slug}/resources`);
    }
  }
  targets = targets.slice(0, 24);
  for (const path of targets) {
    // A read that passed the short deadline on a loaded machine says nothing
    // of the target: the baseline holds what it answers in time.
    let res = await request(server).get(path);
    for (let retry = 0; retry < 3 && isTimeout(res); retry++)
      res = await request(server).get(path);
    const code = typedCodeOf(res);
    if (code) typedWithoutFaults.set(path, code);
    for (const badge of badgesOf(path, res.body))
      baseline.set(badge.key, badge.health);
  }
});

afterAll(async () => {
  process.off('unhandledRejection', recordCrash);
  process.off('uncaughtException', recordCrash);
  await simulator.close();
});

interface ModeRun {
  outcomes: Record<Outcome, number>;
  /** The code of each target answered with a typed error. */
  typedCodes: Map<string, string>;
  wrongBadges: string[];
  bodies: string[];
  codes: Set<string>;
  messages: string[];
}

async function runMode(knobs: ReturnType<typeof knobsOf>): Promise<ModeRun> {
  simulator.setFaults(knobs);
  const run: ModeRun = {
    outcomes: { ok: 0, partial: 0, 'typed error': 0, untyped: 0 },
    typedCodes: new Map(),
    wrongBadges: [],
    bodies: [],
    codes: new Set(),
    messages: [],
  };
  // Long past the deadline the backend must have answered; this only
  // catches a request that never ends (an unbounded walk), it times nothing,
  // so it leaves room for a machine shared with other work.
  const hangAfterMs = SUITE_SETTINGS.requestDeadlineMs * 5;
  await Promise.all(
    targets.map(async path => {
      const res = await request(server).get(path).timeout(hangAfterMs);
      const outcome = classify(res.status, res.body);
      run.outcomes[outcome] += 1;
      const code = typedCodeOf(res);
      if (code) run.typedCodes.set(path, code);
      run.bodies.push(res.text);
      const errors = [
        ...(res.body.errors ?? []),
        ...(res.body.gitlabEnv ? [res.body.gitlabEnv] : []),
        ...(res.body.environments ?? []).flatMap((e: any) => e.errors ?? []),
      ];
      errors.forEach((e: any) => {
        run.codes.add(e.code);
        run.messages.push(e.message);
      });
      for (const badge of badgesOf(path, res.body)) {
        if (isDefiniteButWrong(badge.health, baseline.get(badge.key)))
          run.wrongBadges.push(badge.key);
      }
    }),
  );
  await new Promise(resolve => setTimeout(resolve, 60)); // past the short TTLs
  return run;
}

describe('fault suite against the simulator', () => {
  it('has a baseline to compare badges with', () => {
    expect(targets.length).toBeGreaterThan(5);
    expect(baseline.size).toBeGreaterThan(5);
    expect(typedWithoutFaults.size).toBeGreaterThan(0);
  });

  it.each(
    FAULT_MODES.filter(mode => !mode.ciAccessRequests).map(mode => [
      mode.name,
      mode,
    ]),
  )(
    '%s: typed answers only, no definite-but-wrong badge, no crash, no Secret value',
    async (_, mode) => {
      const run = await runMode(knobsOf(mode));
      expect(run.outcomes.untyped).toBe(0);
      expect(run.wrongBadges).toEqual([]);
      expect(crashes).toEqual([]);
      for (const body of run.bodies) {
        for (const secret of secrets) expect(body).not.toContain(secret);
      }
      expectTypedOutcome(mode.name, run);
    },
  );

  it('hostile patterns: each hostile CI access request gets its right decision, none crashes', async () => {
    simulator.setFaults(knobsOf({ name: 'hostile patterns', knobs: {} }));
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const problems: string[] = [];
    // Each request twice, all at once, with the plain ones among them: the
    // answers must not depend on order or on each other.
    const requests = [
      ...HOSTILE_PATTERN_REQUESTS,
      ...PLAIN_PATTERN_REQUESTS,
      ...HOSTILE_PATTERN_REQUESTS,
    ];
    await Promise.all(
      requests.map(async expected => {
        const res = await request(server)
          .get(`/api/gitlab-env${expected.path}`)
          .timeout(SUITE_SETTINGS.requestDeadlineMs * 5);
        const problem = ciAccessAnswerProblem(expected, res.status, res.body);
        if (problem)
          problems.push(`${expected.path.slice(0, 80)}…: ${problem}`);
      }),
    );
    delay.disable();
    // A diagnostic, never a pass/fail figure: the fault-suite script reports it.
    // eslint-disable-next-line no-console
    console.log(
      `hostile patterns: worst event-loop delay ${(delay.max / 1e6).toFixed(
        0,
      )} ms over ${requests.length} requests`,
    );
    expect(problems).toEqual([]);
    expect(crashes).toEqual([]);
  });

  it('keeps memory bounded over the oversized mode', async () => {
    simulator.setFaults(
      knobsOf(FAULT_MODES.find(m => m.name.startsWith('oversized'))!),
    );
    const reads = targets.filter(path => path.endsWith('/resources'));
    const heapAfterRound = [];
    const codes = new Set<string>();
    for (let round = 0; round < 3; round++) {
      for (const path of reads) {
        const res = await request(server).get(path).timeout(60_000);
        expect(res.body.resources?.length ?? 0).toBeLessThanOrEqual(
          SUITE_SETTINGS.limits.maxObjectsPerEnvironment,
        );
        (res.body.errors ?? []).forEach((e: any) => codes.add(e.code));
      }
      // Measured after a full collection: only what is still reachable counts.
      collectGarbage();
      heapAfterRound.push(process.memoryUsage().heapUsed);
    }
    // Every round reads the same thousands of Pods again: a leak of them
    // would grow the heap by every round's worth (over 100 MB).
    const grownMb = (heapAfterRound[2] - heapAfterRound[0]) / 2 ** 20;
    expect(grownMb).toBeLessThan(150);
    expect(codes).toContain('LIMIT_REACHED');
  });
});

/** V8's full collection, reachable from a test without --expose-gc. */
function collectGarbage() {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** What each mode must be answered with: the typed code or warning that names it. */
function expectTypedOutcome(name: string, run: ModeRun) {
  const messages = run.messages.join('\n');
  switch (name) {
    case 'none':
      // On a loaded machine any read may pass the short deadline: that is a
      // timeout, typed too; otherwise each target answers as in the baseline
      // (the same typed error, or none).
      expect(
        targetsAnsweredOtherwise(run).filter(
          ({ answered }) => answered !== 'UPSTREAM_TIMEOUT',
        ),
      ).toEqual([]);
      break;
    case 'latency past the deadline':
      expect([...run.codes]).toContain('UPSTREAM_TIMEOUT');
      break;
    case 'pods+deployments forbidden':
      expect([...run.codes]).toContain('KIND_FORBIDDEN');
      break;
    case 'agent disconnected':
      expect([...run.codes]).toContain('AGENT_NOT_CONNECTED');
      break;
    case 'KAS disabled':
      expect([...run.codes]).toContain('KAS_UNAVAILABLE');
      break;
    case 'looping continue':
    case 'looping endCursor':
      expect(messages).toContain('pagination loop');
      break;
    case 'deep objects (10,000 levels)':
      expect(messages).toContain('nests deeper than 100 levels');
      break;
    case 'oversized Pod lists (+3,000)':
      // Read concurrently on a busy machine, a read may meet its deadline
      // before its limit; the memory test below reads one at a time.
      expect(
        run.codes.has('LIMIT_REACHED') || run.codes.has('UPSTREAM_TIMEOUT'),
      ).toBe(true);
      break;
    case 'duplicate uids':
      expect(messages).toContain('share the uid');
      break;
    case 'malformed metadata':
      expect(messages).toContain('metadata.name is not a string');
      break;
    default:
  }
}

function isTimeout(res: request.Response): boolean {
  return typedCodeOf(res) === 'UPSTREAM_TIMEOUT';
}

/** Targets whose answer is not the baseline's: another typed error, or one where the baseline had none. */
function targetsAnsweredOtherwise(run: ModeRun) {
  return targets
    .map(path => ({
      path,
      answered: run.typedCodes.get(path) ?? 'no typed error',
      expected: typedWithoutFaults.get(path) ?? 'no typed error',
    }))
    .filter(({ answered, expected }) => answered !== expected);
}
