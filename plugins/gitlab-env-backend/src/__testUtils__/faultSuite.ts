import {
  CiAccessMatrixResponse,
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
import {
  HOSTILE_CI_ACCESS,
  HOSTILE_NAME,
  HOSTILE_WILDCARD,
  hostileBranch,
} from './hostileValues';

/**
 * The fault modes, targets and outcome classification shared by the jest
 * fault suite (src/faultSuite.test.ts) and the fault-suite script
 * (bench/fault-suite.ts): one definition of what each simulator knob does to
 * a request and what counts as a typed answer.
 */

export interface FaultMode {
  name: string;
  knobs: Partial<FaultKnobs>;
  /**
   * Instead of the entity pages' routes: CI access asked for these
   * branches, each answer checked against the decision it must get.
   */
  ciAccessRequests?: CiAccessRequest[];
  /** The mode whose p50 this one's is compared with; default `none`. */
  baseline?: string;
}

/** A CI access request (path under /api/gitlab-env) and the decision it must get. */
export interface CiAccessRequest {
  path: string;
  authorized: boolean;
  namespace?: string;
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

/**
 * The fault suite's scenario gives prod-eu's configuration (the agent of
 * the storefront's production/eu-region) hostile CI access rules, and the
 * storefront a hostile protected-branch wildcard (issue #23, finding 1).
 */
const HOSTILE_AGENT = 'prod-eu';

function ciAccessRequests(
  cases: Array<{ branch: string; authorized: boolean; namespace?: string }>,
): CiAccessRequest[] {
  return cases.map(({ branch, ...expected }) => ({
    path: `/entity/default/component/storefront/ci-access?branch=${encodeURIComponent(
      branch,
    )}`,
    ...expected,
  }));
}

/** CI access asked for branches that set the hostile patterns off, and the decision each must get. */
export const HOSTILE_PATTERN_REQUESTS = ciAccessRequests([
  { branch: hostileBranch(36), authorized: false },
  { branch: hostileBranch(255), authorized: false },
  { branch: HOSTILE_NAME, authorized: false },
  {
    branch: `${HOSTILE_NAME.slice(1)}b`,
    authorized: true,
    namespace: 'storefront-protected',
  },
  {
    branch: `feature/${'a'.repeat(240)}`,
    authorized: true,
    namespace: 'storefront-features',
  },
]);

/** The same route and rules with the branches people use: the hostile mode's baseline. */
export const PLAIN_PATTERN_REQUESTS = ciAccessRequests([
  { branch: 'main', authorized: true, namespace: 'storefront-protected' },
  {
    branch: 'feature/login-2',
    authorized: true,
    namespace: 'storefront-features',
  },
  { branch: 'release/1.2', authorized: false },
]);

/** What is wrong with a CI access answer; undefined when its decision is the expected one. */
export function ciAccessAnswerProblem(
  expected: CiAccessRequest,
  status: number,
  body: unknown,
): string | undefined {
  if (status !== 200) return `HTTP ${status}`;
  const matrix = body as CiAccessMatrixResponse;
  const agentId = matrix.agents?.find(a => a.name === HOSTILE_AGENT)?.id;
  const decision = matrix.cells?.find(
    c => c.environment === 'production/eu-region' && c.agentId === agentId,
  )?.decision;
  if (!decision) return 'no decision for production/eu-region';
  if (decision.authorized !== expected.authorized)
    return `authorized ${decision.authorized}: ${decision.message}`;
  if (expected.namespace && decision.namespace?.final !== expected.namespace)
    return `namespace ${decision.namespace?.final}`;
  return undefined;
}

/** One mode per simulator knob, per bad-data case of issue #11, and hostile patterns (#23) with their baseline. */
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
  {
    name: 'ci-access, plain branches',
    knobs: {},
    ciAccessRequests: PLAIN_PATTERN_REQUESTS,
  },
  {
    name: 'hostile patterns',
    knobs: {},
    ciAccessRequests: HOSTILE_PATTERN_REQUESTS,
    baseline: 'ci-access, plain branches',
  },
];

export function knobsOf(mode: FaultMode): FaultKnobs {
  return { ...DEFAULT_FAULTS, ...mode.knobs };
}

/**
 * The default scenario with every agent's RBAC opened, so Secrets are listed
 * (and the Secret faults have something to leak), and no simulated time:
 * health stays what the baseline saw; and the hostile patterns above.
 */
export function faultSuiteScenario(): Scenario {
  const scenario = loadDefaultScenario();
  const agent = scenario.agents.find(a => a.name === HOSTILE_AGENT)!;
  const configPath = `.gitlab/agents/${HOSTILE_AGENT}/config.yaml`;
  return {
    ...scenario,
    agents: scenario.agents.map(a => ({ ...a, forbiddenResources: [] })),
    projects: scenario.projects.map(project => {
      if (project.fullPath === agent.configProject) {
        const text = project.files[configPath];
        return {
          ...project,
          files: {
            ...project.files,
            [configPath]:
              text.slice(0, text.indexOf('ci_access:')) + HOSTILE_CI_ACCESS,
          },
        };
      }
      if (project.fullPath === 'acme/shop/storefront')
        return { ...project, protectedBranches: ['main', HOSTILE_WILDCARD] };
      return project;
    }),
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
