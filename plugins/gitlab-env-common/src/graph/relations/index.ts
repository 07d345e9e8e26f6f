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
import { Relation, RelationSource } from './types';
import { uses } from './uses';

export type {
  Relation,
  RelationContext,
  RelationSource,
  RelationSourceKind,
} from './types';
export { PARENT_RANK, REFERENCE_LABELS } from './types';

/**
 * The built-in relations of the graph, one file each. An object's edges
 * are inferred by the sources of each relation in this order (adopters'
 * sources after them), so the tree parent an object's references claim
 * first is stable.
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

/**
 * The relation sources an engine infers edges with: the built-in ones,
 * then adopters' in the order they were registered.
 *
 * @public
 */
export interface RelationSet {
  /** The sources that apply to objects of a group and kind, in order. */
  sourcesOf(group: string, kind: string): readonly RelationSource[];
  /** The ids of every source, in order. */
  ids(): string[];
}

const NO_SOURCES: readonly RelationSource[] = [];
const BUILTIN_IDS = new Set(RELATIONS.flatMap(r => r.sources.map(s => s.id)));
/** Kinds and groups come from clusters: past this many, what applies is not cached. */
const MAX_CACHED_KINDS = 2048;

function problemOf(source: RelationSource): string | undefined {
  if (typeof source !== 'object' || source === null) return 'is not an object';
  if (typeof source.id !== 'string' || !source.id) return 'has no id';
  if (typeof source.infer !== 'function')
    return `${source.id}: infer is not a function`;
  if (source.kinds === undefined) return undefined;
  if (!Array.isArray(source.kinds) || source.kinds.length === 0)
    return `${source.id}: kinds must be a non-empty list (leave it out for every object)`;
  for (const kind of source.kinds) {
    if (
      typeof kind?.kind !== 'string' ||
      !kind.kind ||
      (kind.group !== undefined && typeof kind.group !== 'string')
    )
      return `${
        source.id
      }: each of kinds needs a kind and, optionally, a group (string, '' for core), got ${JSON.stringify(
        kind,
      )}`;
  }
  return undefined;
}

/**
 * The relation set of the built-in relations and these sources of
 * adopters' (a backend module's, through the relations extension point).
 * A source that is malformed, or whose id another source has, is an error
 * naming it.
 *
 * @public
 */
export function createRelationSet(
  adopterSources: Iterable<RelationSource> = [],
): RelationSet {
  const all: RelationSource[] = RELATIONS.flatMap(r => r.sources);
  const ids = new Set(BUILTIN_IDS);
  for (const source of adopterSources) {
    const problem = problemOf(source);
    if (problem) throw new Error(`A relation source ${problem}`);
    if (ids.has(source.id))
      throw new Error(
        `Two relation sources have the id ${source.id}${
          BUILTIN_IDS.has(source.id) ? ' (a built-in relation has it)' : ''
        }: ids must be unique`,
      );
    ids.add(source.id);
    // Copied, so that changing the registered object changes nothing here.
    all.push({
      id: source.id,
      kinds: source.kinds?.map(({ kind, group }) => ({ kind, group })),
      infer: source.infer,
    });
  }
  const byKind = new Map<string, Map<string, readonly RelationSource[]>>();
  let cached = 0;
  const applyingTo = (group: string, kind: string) => {
    const applying = all.filter(
      source =>
        source.kinds === undefined ||
        source.kinds.some(
          k => k.kind === kind && (k.group === undefined || k.group === group),
        ),
    );
    const result = applying.length > 0 ? applying : NO_SOURCES;
    if (cached < MAX_CACHED_KINDS) {
      let byGroup = byKind.get(kind);
      if (!byGroup) byKind.set(kind, (byGroup = new Map()));
      byGroup.set(group, result);
      cached += 1;
    }
    return result;
  };
  // The last answer: objects are inferred kind by kind, as lists come.
  let lastGroup: string | undefined;
  let lastKind: string | undefined;
  let lastSources: readonly RelationSource[] = NO_SOURCES;
  return {
    sourcesOf(group, kind) {
      if (group !== lastGroup || kind !== lastKind) {
        lastSources = byKind.get(kind)?.get(group) ?? applyingTo(group, kind);
        lastGroup = group;
        lastKind = kind;
      }
      return lastSources;
    },
    ids: () => all.map(source => source.id),
  };
}

/** The built-in relations alone: what an engine infers with unless given a set. */
export const BUILTIN_RELATIONS: RelationSet = createRelationSet();
