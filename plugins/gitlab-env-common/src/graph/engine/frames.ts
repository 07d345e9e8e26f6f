import { ResourceKey } from '../../types';
import type { RelationContext } from '../relations/types';
import { Arena, NO_INT32, Numbers, inOneBuffer } from './columns';

/** An inventory entry the cluster lacks, and the inferences (frames) that list it. */
export interface MissingEntry {
  key: ResourceKey;
  id: string;
  slot: number;
  /** The identity key it is found by. */
  identity: number;
  /** Per listing frame, the version its entry names. */
  listers: Map<number, string>;
}

/** What most frames list (only inventories list entries): one empty set for all of them. */
export const NO_ENTRIES: ReadonlySet<MissingEntry> = new Set();

/** The entries an inference listed, as a frame keeps them. */
export function listedEntries(
  listing: ReadonlySet<MissingEntry> | undefined,
): ReadonlySet<MissingEntry> {
  return listing === undefined || listing.size === 0
    ? NO_ENTRIES
    : new Set(listing);
}

/**
 * Frames: each one inference of an origin's edges, the whole of it (place
 * 0) or one item of a list it goes through with `forEach` (place n for the
 * n-th item), which runs again alone when only what that item read
 * changed. A frame's generation moves on whenever it forgets what it read
 * and when its number is freed, so reads recorded before never count again.
 */
export class FrameTable {
  private readonly numbers = new Numbers();
  origin = NO_INT32;
  place = NO_INT32;
  generation = NO_INT32;
  /** For an item: the relation's function and the item, to run it again. */
  readonly run: Array<
    ((item: any, context: RelationContext) => void) | undefined
  > = [];
  readonly item: unknown[] = [];
  /** Missing inventory entries it holds (replaced, never changed in place); unset for none. */
  readonly listed: Array<ReadonlySet<MissingEntry> | undefined> = [];

  /** Room for this many frames without growing. */
  reserve(frames: number, arena: Arena) {
    this.grow(frames, arena);
  }

  private grow(size: number, arena: Arena) {
    this.origin = arena.grown(this.origin, size);
    this.place = arena.grown(this.place, size);
    this.generation = arena.grown(this.generation, size);
  }

  /** A frame for an origin at a place. */
  take(origin: number, place: number): number {
    const frame = this.numbers.take();
    if (frame >= this.origin.length) inOneBuffer(this, frame + 1, this.grow);
    this.origin[frame] = origin;
    this.place[frame] = place;
    // A frame's run, item and listed entries are cleared when it is
    // released: a new number's are unset, read as none.
    return frame;
  }

  release(frame: number) {
    this.generation[frame] += 1;
    this.run[frame] = undefined;
    this.item[frame] = undefined;
    this.listed[frame] = undefined;
    this.numbers.release(frame);
  }

  /** Whether the frame is an item's. */
  isItem(frame: number): boolean {
    return this.place[frame] > 0;
  }
}
