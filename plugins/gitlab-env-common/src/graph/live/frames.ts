import { ResourceEdgeType } from '../../types';
import type { LiveContext } from './liveContext';

/** One edge as one origin's inference added it; a ranked one bids to be the target's tree parent. */
export interface Addition {
  source: number;
  target: number;
  type: ResourceEdgeType;
  rank: number | undefined;
  seq: number;
}

/** A bid of an inference to make `source` the tree parent of a node. */
export interface Bid {
  frame: Frame;
  seq: number;
  rank: number;
  source: number;
}

/**
 * One inference of an origin's edges: the whole of it, or one item of a
 * list it goes through with `forEach` (an inventory entry), which runs
 * again alone when only what that item read changed.
 */
export interface Frame {
  origin: number;
  /** Sequence numbers of its additions start here: items after the whole, in list order. */
  seqBase: number;
  /** Keys read, to drop when it runs again. */
  reads: string[];
  additions: Addition[];
  /** Inventory entries it holds Missing (replaced, never changed in place). */
  listed: ReadonlySet<string>;
  /** For an item: runs its inference again. */
  rerun?: (context: LiveContext) => void;
  /** For an item: the item as JSON, to keep its inference when its origin changes but it does not. */
  itemKey?: string;
}

/** Items of one origin's list get sequence numbers this far apart. */
export const ITEM_SEQ = 1 << 20;

/** What most frames list (only inventories list entries): one empty set for all of them. */
const NO_ENTRIES: ReadonlySet<string> = new Set();

/** The entries an inference listed, as a frame keeps them. */
export function listedEntries(
  listing: ReadonlySet<string>,
): ReadonlySet<string> {
  return listing.size === 0 ? NO_ENTRIES : new Set(listing);
}

export function newFrame(origin: number, seqBase = 0): Frame {
  return { origin, seqBase, reads: [], additions: [], listed: NO_ENTRIES };
}
