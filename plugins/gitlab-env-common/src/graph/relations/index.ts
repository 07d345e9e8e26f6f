import { ResourceEdgeType } from '../../types';
import { dependsOn } from './dependsOn';
import { groups } from './groups';
import { manages } from './manages';
import { mounts } from './mounts';
import { owns } from './owns';
import { routes } from './routes';
import { scales } from './scales';
import { selects } from './selects';
import { sources } from './sources';
import { Relation, RelationRule } from './types';
import { uses } from './uses';

export type { Relation, RelationContext, RelationRule } from './types';
export { PARENT_RANK, REFERENCE_LABELS } from './types';

/**
 * The relations of the graph, one file each. An object's edges are
 * inferred by the rules of each relation in this order, so the tree parent
 * an object's references claim first is stable.
 */
export const RELATIONS: readonly Relation[] = [
  owns,
  selects,
  routes,
  scales,
  mounts,
  uses,
  manages,
  groups,
  sources,
  dependsOn,
];

/** Edge types by which the graph places a node nothing owns (see Relation.placesUnowned). */
export const PLACING_EDGE_TYPES: ReadonlySet<ResourceEdgeType> = new Set(
  RELATIONS.filter(relation => relation.placesUnowned).map(r => r.type),
);

const RULES: readonly RelationRule[] = RELATIONS.flatMap(r => r.rules);
const NO_RULES: readonly RelationRule[] = [];
const rulesByKind = new Map<string, Map<string, readonly RelationRule[]>>();
/** Kinds and groups come from clusters: past this many, rules are not cached. */
const MAX_CACHED_KINDS = 2048;
let cachedKinds = 0;

function applyingRules(group: string, kind: string): readonly RelationRule[] {
  const applying = RULES.filter(
    rule =>
      (rule.kind === undefined || rule.kind === kind) &&
      (rule.group === undefined || rule.group === group),
  );
  return applying.length > 0 ? applying : NO_RULES;
}

/**
 * The rules that apply to objects of a group and kind, in registry order;
 * worked out once per group and kind.
 */
export function relationRulesOf(
  group: string,
  kind: string,
): readonly RelationRule[] {
  const cached = rulesByKind.get(kind)?.get(group);
  if (cached) return cached;
  const rules = applyingRules(group, kind);
  if (cachedKinds < MAX_CACHED_KINDS) {
    let byGroup = rulesByKind.get(kind);
    if (!byGroup) rulesByKind.set(kind, (byGroup = new Map()));
    byGroup.set(group, rules);
    cachedKinds += 1;
  }
  return rules;
}
