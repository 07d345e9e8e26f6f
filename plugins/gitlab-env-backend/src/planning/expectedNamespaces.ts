/**
 * The namespaces expected to be read through an agent with a label selector
 * (by `agent|selector`), so the informers a read starts across the cluster
 * span all of them from their first list instead of listing again as each
 * environment joins. One concept with two lifetimes: the namespaces of the
 * environments readMany registers, expected while it registers them, and
 * those a listing announces (an entity page's cards, read one by one after
 * it), expected until a time.
 */
export class ExpectedNamespaces {
  /** Per `agent|selector`: each namespace, until when (ms; Infinity while registered). */
  private readonly byGroup = new Map<string, Map<string, number>>();
  /** No announcement ends before then (ms). */
  private earliest = Infinity;

  /** Expects the namespaces until `until` (ms). */
  announce(
    groupKey: string,
    namespaces: Iterable<string>,
    until: number,
  ): void {
    let expected = this.byGroup.get(groupKey);
    if (!expected) this.byGroup.set(groupKey, (expected = new Map()));
    for (const namespace of namespaces) expected.set(namespace, until);
    this.earliest = Math.min(this.earliest, until);
  }

  /**
   * Expects each group's namespaces while `register` runs (readMany starts
   * its reads), then as they were before: what was announced stays.
   */
  during<T>(
    groups: ReadonlyMap<string, ReadonlySet<string>>,
    register: () => T,
  ): T {
    const before: Array<[string, string, number | undefined]> = [];
    for (const [groupKey, namespaces] of groups) {
      let expected = this.byGroup.get(groupKey);
      if (!expected) this.byGroup.set(groupKey, (expected = new Map()));
      for (const namespace of namespaces) {
        before.push([groupKey, namespace, expected.get(namespace)]);
        expected.set(namespace, Infinity);
      }
    }
    try {
      return register();
    } finally {
      for (const [groupKey, namespace, until] of before) {
        const expected = this.byGroup.get(groupKey);
        if (!expected) continue;
        if (until === undefined) expected.delete(namespace);
        else expected.set(namespace, until);
        if (expected.size === 0) this.byGroup.delete(groupKey);
      }
    }
  }

  /**
   * Visits the namespaces expected through the agent with this selector
   * now until `visit` says stop; whether it did.
   */
  some(groupKey: string, visit: (namespace: string) => boolean): boolean {
    const expected = this.byGroup.get(groupKey);
    if (!expected) return false;
    // The clock is read once, and only where an announcement may have ended.
    let now: number | undefined;
    for (const [namespace, until] of expected) {
      if (until !== Infinity) {
        now ??= Date.now();
        if (until <= now) continue;
      }
      if (visit(namespace)) return true;
    }
    return false;
  }

  /**
   * Forgets announcements past their time, looked for only once one may
   * be (an overview announces each entity's environments).
   */
  forgetEnded(now: number): void {
    if (this.earliest > now) return;
    this.earliest = Infinity;
    for (const [groupKey, expected] of this.byGroup) {
      expected.forEach((until, namespace) => {
        if (until <= now) expected.delete(namespace);
        else if (until !== Infinity)
          this.earliest = Math.min(this.earliest, until);
      });
      if (expected.size === 0) this.byGroup.delete(groupKey);
    }
  }
}
