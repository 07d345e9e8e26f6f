import {
  buildResourceGraph,
  GitlabEnvError,
  GitlabEnvironment,
  HealthRuleSet,
  HealthSummary,
  KubernetesObject,
  NarrowedScope,
  narrowEnvironmentObjects,
  readOnlyOf,
  RelationSet,
  ResourceGraph,
  summarizeGraphHealth,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import type { ListableKind } from '../reading/discovery';
import { markExpectedRefusals } from './expectedRefusals';
import { ObjectSource } from '../reading/objectSource';
import { ReadBounds } from '../reading/readBounds';
import { readEnvironmentObjects } from '../reading/resourceReader';

/** An environment's objects with the engine's graph and health, and what made them incomplete. */
export interface EnvironmentRead {
  resources: KubernetesObject[];
  graph: ResourceGraph;
  health: HealthSummary;
  errors: GitlabEnvError[];
  fetchedAt: string;
  /** The namespace is shared: what narrowing to the environment's own objects left out. */
  narrowed?: NarrowedScope;
}

/** How the engine judges what it assembles. */
export interface Judging {
  healthRules: HealthRuleSet | undefined;
  relations?: RelationSet;
  expectedForbiddenKinds: string[];
}

/**
 * An environment's objects from a source, with the engine's graph and
 * health, and NO_RESOURCES when nothing was found and nothing failed.
 * Whatever made the data incomplete (a kind that failed, objects left out,
 * a limit) is an entry of `errors`, and marks the health as partial.
 */
export async function assembleRead(
  source: ObjectSource,
  kinds: ListableKind[],
  environment: GitlabEnvironment,
  labelSelector: string | undefined,
  read: { bounds: ReadBounds; warnings: () => GitlabEnvError[] },
  judging: Judging,
): Promise<EnvironmentRead> {
  const namespace = environment.namespace!;
  const listed = await readEnvironmentObjects(source, kinds, {
    namespace,
    fluxResourcePath: environment.fluxResourcePath,
  });
  // A shared namespace: only the environment's own objects (the live path
  // narrows the same way, LiveEnvironment).
  const { objects, narrowed } = narrowEnvironmentObjects(
    listed.objects,
    environment,
  );
  const kept = objects.slice(0, read.bounds.maxObjects);
  const errors = environmentErrors({
    listed: listed.errors,
    warnings: read.warnings(),
    environment,
    labelSelector,
    expectedForbiddenKinds: judging.expectedForbiddenKinds,
    limitedTo:
      read.bounds.exceeded || kept.length < objects.length
        ? { max: read.bounds.maxObjects, shown: kept.length }
        : undefined,
    empty: kept.length === 0,
  });
  const graph = buildResourceGraph(kept, {
    health: { rules: judging.healthRules },
    readOnly: readOnlyOf(environment.actionScope),
    relations: judging.relations,
  });
  return {
    resources: kept,
    graph,
    health: markPartial(summarizeGraphHealth(graph), errors),
    errors,
    fetchedAt: new Date().toISOString(),
    ...(narrowed && { narrowed }),
  };
}

/**
 * An environment's errors from what its read met: refusals the agents make
 * on purpose marked as information, the object limit, and NO_RESOURCES
 * when nothing was found and nothing failed. Shared by reads and live
 * environments.
 */
export function environmentErrors(read: {
  listed: GitlabEnvError[];
  /** The read's own warnings (limits, malformed items). */
  warnings: GitlabEnvError[];
  environment: GitlabEnvironment;
  labelSelector: string | undefined;
  expectedForbiddenKinds: string[];
  limitedTo?: { max: number; shown: number };
  empty: boolean;
}): GitlabEnvError[] {
  const { environment, labelSelector, limitedTo } = read;
  const namespace = environment.namespace!;
  // Refusals the agents make on purpose are information, not gaps.
  const errors = markExpectedRefusals(
    [...read.listed, ...(environment.errors ?? []), ...read.warnings],
    read.expectedForbiddenKinds,
    environment.fluxResourcePath,
  );
  if (limitedTo) {
    errors.push({
      code: 'LIMIT_REACHED',
      message: `This environment has more than ${limitedTo.max} objects; showing the first ${limitedTo.shown}. Narrow it with the gitlab-env/label-selector annotation.`,
      hint: 'Set gitlab-env/label-selector on the entity so it reads only its own objects, or raise gitlabEnv.limits.maxObjectsPerEnvironment.',
    });
  }
  if (read.empty && errors.length === 0) {
    errors.push({
      code: 'NO_RESOURCES',
      message: `Nothing was found in the namespace ${namespace}${
        labelSelector ? ` with the label selector ${labelSelector}` : ''
      }.`,
      hint: labelSelector
        ? 'The deployed objects may lack the labels the gitlab-env/label-selector annotation asks for.'
        : 'Nothing may have been deployed yet, or it went to another namespace.',
    });
  }
  return errors;
}

/**
 * Errors that leave the data complete: the read found all there is (the
 * Flux object the settings name does not exist: said, not a gap).
 */
const COMPLETE_READ_CODES = new Set(['NO_RESOURCES', 'FLUX_OBJECT_MISSING']);

export function incompleteness(errors: GitlabEnvError[]): GitlabEnvError[] {
  return errors.filter(e => !e.expected && !COMPLETE_READ_CODES.has(e.code));
}

/** A summary from incomplete data says so: never a plain Healthy. */
export function markPartial(
  health: HealthSummary,
  errors: GitlabEnvError[],
): HealthSummary {
  const gaps = incompleteness(errors);
  if (gaps.length === 0) return health;
  const reasons = [...new Set(gaps.map(e => e.message))];
  return {
    ...health,
    partial: {
      reasons: reasons
        .slice(0, 5)
        .concat(reasons.length > 5 ? [`and ${reasons.length - 5} more`] : []),
    },
  };
}

/**
 * Gaps no read soon would fill: a limit (objects, pages, bytes) reached
 * stays reached until the environment or the limits change, so re-reading
 * tens of thousands of objects every few seconds would buy nothing.
 */
const LASTING_GAP_CODES = new Set(['LIMIT_REACHED']);

/** A read whose gaps another read soon may fill: kept for seconds, not the TTL. */
export function isPartialRead(value: unknown): boolean {
  const errors = (value as Partial<EnvironmentRead> | undefined)?.errors;
  return (
    Array.isArray(errors) &&
    incompleteness(errors).some(e => !LASTING_GAP_CODES.has(e.code))
  );
}

/** An environment with what its read could not get, next to its own settings' errors. */
export function withReadErrors(
  environment: GitlabEnvironment,
  errors: GitlabEnvError[],
): GitlabEnvironment {
  const own = environment.errors ?? [];
  const added = errors.filter(e => !own.includes(e));
  const all = [...own, ...added];
  return all.length > 0 ? { ...environment, errors: all } : environment;
}
