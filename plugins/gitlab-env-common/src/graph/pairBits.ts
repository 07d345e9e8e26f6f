/** Int32 entries per slot: first index + 1, second index, bits. */
const SLOT = 3;

/** A well-mixed 32-bit hash of two integers (multiplicative, then xor-shift). */
function slotOf(first: number, second: number): number {
  const h = Math.imul(first, 0x9e3779b1) ^ Math.imul(second, 0x85ebca6b);
  return h ^ (h >>> 15);
}

/**
 * A set of bits per pair of node indexes, in one flat typed array (open
 * addressing, linear probing). The graph builder records here which edge
 * types it already added between two nodes: no key string, no Map and no
 * object per pair or per node, so deduplicating edges allocates nothing
 * but the occasional doubling of the array. A slot holds the first index
 * plus one (0 marks a free slot) next to the second index and the bits, so
 * a probe reads one cache line.
 */
export class PairBits {
  private slots: Int32Array;
  private mask: number;
  private size = 0;

  /** `expected`: how many pairs to make room for before the first doubling. */
  constructor(expected = 8) {
    let capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    this.slots = new Int32Array(capacity * SLOT);
    this.mask = capacity - 1;
  }

  /**
   * Sets `bit` for the pair (`first`, `second`), both non-negative
   * integers; false when it was set already.
   */
  add(first: number, second: number, bit: number): boolean {
    const slots = this.slots;
    let slot = slotOf(first, second) & this.mask;
    for (;;) {
      const at = slot * SLOT;
      const stored = slots[at];
      if (stored === 0) break;
      if (stored === first + 1 && slots[at + 1] === second) {
        if ((slots[at + 2] & bit) !== 0) return false;
        slots[at + 2] |= bit;
        return true;
      }
      slot = (slot + 1) & this.mask;
    }
    const at = slot * SLOT;
    slots[at] = first + 1;
    slots[at + 1] = second;
    slots[at + 2] = bit;
    this.size += 1;
    // At most half full, so probe runs stay short.
    if (this.size * 2 > this.mask) this.grow();
    return true;
  }

  private grow() {
    const old = this.slots;
    const capacity = (this.mask + 1) * 2;
    this.slots = new Int32Array(capacity * SLOT);
    this.mask = capacity - 1;
    for (let from = 0; from < old.length; from += SLOT) {
      if (old[from] === 0) continue;
      let slot = slotOf(old[from] - 1, old[from + 1]) & this.mask;
      while (this.slots[slot * SLOT] !== 0) slot = (slot + 1) & this.mask;
      this.slots.set(old.subarray(from, from + SLOT), slot * SLOT);
    }
  }
}
