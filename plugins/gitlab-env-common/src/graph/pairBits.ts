/**
 * A set of bits per pair of node indices, in flat typed arrays (open
 * addressing, linear probing). The graph builder records here which edge
 * types it already added between two nodes: no key string, no Map and no
 * object per pair or per node, so deduplicating edges allocates nothing
 * but the occasional doubling of the arrays.
 */
export class PairBits {
  /** First index of the pair plus one; 0 marks a free slot. */
  private firsts: Int32Array;
  private seconds: Int32Array;
  private bits: Int32Array;
  private mask: number;
  private size = 0;

  /** `expected`: how many pairs to make room for before the first doubling. */
  constructor(expected = 8) {
    let capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    this.firsts = new Int32Array(capacity);
    this.seconds = new Int32Array(capacity);
    this.bits = new Int32Array(capacity);
    this.mask = capacity - 1;
  }

  /**
   * Sets `bit` for the pair (`first`, `second`), both non-negative
   * integers; false when it was set already.
   */
  add(first: number, second: number, bit: number): boolean {
    let slot = slotOf(first, second) & this.mask;
    for (;;) {
      const stored = this.firsts[slot];
      if (stored === 0) break;
      if (stored === first + 1 && this.seconds[slot] === second) {
        if ((this.bits[slot] & bit) !== 0) return false;
        this.bits[slot] |= bit;
        return true;
      }
      slot = (slot + 1) & this.mask;
    }
    this.firsts[slot] = first + 1;
    this.seconds[slot] = second;
    this.bits[slot] = bit;
    this.size += 1;
    // At most half full, so probe runs stay short.
    if (this.size * 2 > this.mask) this.grow();
    return true;
  }

  private grow() {
    const { firsts, seconds, bits } = this;
    const capacity = firsts.length * 2;
    this.firsts = new Int32Array(capacity);
    this.seconds = new Int32Array(capacity);
    this.bits = new Int32Array(capacity);
    this.mask = capacity - 1;
    for (let old = 0; old < firsts.length; old++) {
      if (firsts[old] === 0) continue;
      let slot = slotOf(firsts[old] - 1, seconds[old]) & this.mask;
      while (this.firsts[slot] !== 0) slot = (slot + 1) & this.mask;
      this.firsts[slot] = firsts[old];
      this.seconds[slot] = seconds[old];
      this.bits[slot] = bits[old];
    }
  }
}

/** A well-mixed 32-bit hash of two integers (multiplicative, then xor-shift). */
function slotOf(first: number, second: number): number {
  const h = Math.imul(first, 0x9e3779b1) ^ Math.imul(second, 0x85ebca6b);
  return h ^ (h >>> 15);
}
