/**
 * A map from keys to sets of values that holds a key's lone value inline.
 * Most keys of the live graph's indexes (a uid, a kind and name, a label
 * pair one object reads) have a single value; a Set per key costs many
 * times the value (the set and its hash table), tens of thousands of them
 * for an environment of 10,000 objects. Values are never Sets themselves.
 */
export class SetMap<K, V> {
  private readonly map = new Map<K, V | Set<V>>();

  /** Adds the value to the key's; false when it was there already. */
  add(key: K, value: V): boolean {
    const held = this.map.get(key);
    if (held === undefined) {
      this.map.set(key, value);
      return true;
    }
    if (held instanceof Set) {
      if (held.has(value)) return false;
      held.add(value);
      return true;
    }
    if (held === value) return false;
    this.map.set(key, new Set([held, value]));
    return true;
  }

  delete(key: K, value: V): void {
    const held = this.map.get(key);
    if (held instanceof Set) {
      held.delete(value);
      if (held.size === 1) this.map.set(key, held.values().next().value as V);
    } else if (held !== undefined && held === value) {
      this.map.delete(key);
    }
  }

  /** How many values the key has. */
  count(key: K): number {
    const held = this.map.get(key);
    if (held === undefined) return 0;
    return held instanceof Set ? held.size : 1;
  }

  /** The key's values, in the order they were added. */
  values(key: K): Iterable<V> {
    const held = this.map.get(key);
    if (held === undefined) return [];
    return held instanceof Set ? held : [held];
  }
}
