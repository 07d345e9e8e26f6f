import {
  EntityEnvironmentsResponse,
  EnvironmentResourcesResponse,
  GitlabEnvErrorResponse,
  HealthSummary,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  DEFAULT_FAULTS,
  FaultKnobs,
  loadDefaultScenario,
  Scenario,
  scenarioCatalogEntities,
} from '@gitlab-env/gitlab-simulator';

/**
 * The fault modes, targets and outcome classification shared by the jest
 * fault suite (src/faultSuite.test.ts) and the fault-suite script
 * (bench/fault-suite.ts): one definition of what each simulator knob does to
 * a request and what counts as a typed answer.
 */

export interface FaultMode {
  name: string;
  knobs: Partial<FaultKnobs>;
}

/** Settings that make every bound reachable within a test: a short deadline, small limits. */
export const SUITE_SETTINGS = {
  requestTimeoutMs: 1_000,
  // Above the simulator's scaled-down tunnel search (TEST_KAS_TUNNELS), as
  // the defaults are above KAS's 20 s.
  kasFirstRequestTimeoutMs: 1_500,
  requestDeadlineMs: 4_000,
  // Nearly every request reads upstream again, so faults act on each one.
  cacheTtlSeconds: 0.05,
  transientCacheSeconds: 0.05,
  limits: { maxObjectsPerEnvironment: 2_000, maxPagesPerList: 20 },
};

/** One mode per simulator knob, and per bad-data case of issue #11. */
export const FAULT_MODES: FaultMode[] = [
  { name: 'none', knobs: {} },
  { name: 'latency past the deadline', knobs: { latencyMs: 1_500 } },
  { name: '5xx 20%', knobs: { errorRate: 0.2, errorKind: '5xx' } },
  { name: 'reset 20%', knobs: { errorRate: 0.2, errorKind: 'reset' } },
  { name: 'slow-body 20%', knobs: { errorRate: 0.2, errorKind: 'slow-body' } },
  {
    name: 'malformed-json 30%',
    knobs: { errorRate: 0.3, errorKind: 'malformed-json' },
  },
  {
    name: 'invalid-utf8 30%',
    knobs: { errorRate: 0.3, errorKind: 'invalid-utf8' },
  },
  {
    name: 'pods+deployments forbidden',
    knobs: { forbiddenKinds: ['pods', 'apps/deployments'] },
  },
  { name: 'namespaced RBAC only', knobs: { namespacedRbacOnly: true } },
  {
    name: 'agent disconnected',
    knobs: { disconnectedAgents: ['1', '2', '3'] },
  },
  { name: 'KAS disabled', knobs: { kasEnabled: false } },
  { name: 'looping continue', knobs: { loopingContinue: true } },
  { name: 'looping endCursor', knobs: { loopingCursor: true } },
  { name: 'deep objects (10,000 levels)', knobs: { deepObjectDepth: 10_000 } },
  {
    name: 'oversized Pod lists (+3,000)',
    knobs: { oversizedListItems: 3_000 },
  },
  { name: 'Secrets in a List', knobs: { secretsInList: true } },
  { name: 'duplicate uids', knobs: { duplicateUids: true } },
  { name: 'malformed metadata', knobs: { malformedMetadata: true } },
];

export function knobsOf(mode: FaultMode): FaultKnobs {
  return { ...DEFAULT_FAULTS, ...mode.knobs };
}

/**
 * The default scenario with every agent's RBAC opened, so Secrets are listed
 * (and the Secret faults have something to leak), and no simulated time:
 * health stays what the baseline saw.
 */
export function faultSuiteScenario(): Scenario {
  const scenario = loadDefaultScenario();
  return {
    ...scenario,
    agents: scenario.agents.map(a => ({ ...a, forbiddenResources: [] })),
  };
}

export function faultSuiteEntities(scenario: Scenario) {
  return scenarioCatalogEntities(scenario);
}

/** Every value of every Secret in the scenario: none may reach a response. */
export function secretValues(scenario: Scenario): string[] {
  return scenario.clusters.flatMap(cluster =>
    cluster.objects
      .filter(o => o.kind === 'Secret')
      .flatMap(o =>
        [
          ...Object.values((o as any).data ?? {}),
          ...Object.values((o as any).stringData ?? {}),
        ].filter((v): v is string => typeof v === 'string' && v.length >= 6),
      ),
  );
}

export type Outcome = 'ok' | 'partial' | 'typed error' | 'untyped';
export const OUTCOMES: Outcome[] = ['ok', 'partial', 'typed error', 'untyped'];

/** The answer the fallback of asGitlabEnvError gives an error it does not know. */
const UNTYPED_MESSAGE = 'An unexpected error occurred';

export function classify(status: number, body: unknown): Outcome {
  if (status >= 200 && status < 300) {
    const errors = (body as { errors?: unknown[] })?.errors ?? [];
    const environments =
      (body as Partial<EntityEnvironmentsResponse>)?.environments ?? [];
    const incomplete =
      errors.some((e: any) => e?.code !== 'NO_RESOURCES') ||
      environments.some(e => e.errors?.length);
    return incomplete ? 'partial' : 'ok';
  }
  const detail = (body as Partial<GitlabEnvErrorResponse>)?.gitlabEnv;
  if (!detail?.code || detail.message?.startsWith(UNTYPED_MESSAGE))
    return 'untyped';
  return 'typed error';
}

/** The badges an answer shows, by environment: what a person sees as health. */
export function badgesOf(
  path: string,
  body: unknown,
): Array<{ key: string; health: HealthSummary }> {
  if (path.endsWith('/resources')) {
    const read = body as EnvironmentResourcesResponse;
    return read?.health
      ? [
          {
            key: `${read.entityRef}/${read.environment.slug}`,
            health: read.health,
          },
        ]
      : [];
  }
  const list = body as EntityEnvironmentsResponse;
  return (list?.environments ?? []).flatMap(e =>
    e.health ? [{ key: `${list.entityRef}/${e.slug}`, health: e.health }] : [],
  );
}

/**
 * A badge that claims a health the full data does not have: no partial
 * mark, and a status other than the baseline's.
 */
export function isDefiniteButWrong(
  health: HealthSummary,
  baseline: HealthSummary | undefined,
): boolean {
  return !!baseline && !health.partial && health.status !== baseline.status;
}

/** p-th percentile of durations (nearest rank). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[
    Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)
  ];
}
