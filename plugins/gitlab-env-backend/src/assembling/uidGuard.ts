import {
  GitlabEnvError,
  KubernetesObject,
  WatchEvent,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';

function identityOf(o: KubernetesObject): string {
  return `${o.apiVersion} ${o.kind} ${o.metadata?.namespace ?? ''}/${
    o.metadata?.name
  }`;
}

/** Whether two objects are the same object (identityOf alike), without writing either's identity out. */
function sameIdentity(a: KubernetesObject, b: KubernetesObject): boolean {
  return (
    a.apiVersion === b.apiVersion &&
    a.kind === b.kind &&
    (a.metadata?.namespace ?? '') === (b.metadata?.namespace ?? '') &&
    String(a.metadata?.name) === String(b.metadata?.name)
  );
}

/**
 * Distinct objects sharing a uid break the API's promise: the first one an
 * environment holds is kept, the others are left out and named in one
 * warning per uid, never merged silently into one node.
 * Every object of every environment passes here, and almost none share a
 * uid: the holder is kept as the object itself (held by the graph anyway),
 * and identities are written out only for those left out.
 */
export class UidGuard {
  /** uid → the object holding it, as last seen. */
  private readonly holders = new Map<string, KubernetesObject>();
  /** uid → the identities left out, in the order they came. */
  private readonly leftOut = new Map<string, string[]>();

  /** The events, without those of an object whose uid another object holds. */
  filter(events: readonly WatchEvent[]): WatchEvent[] {
    return events.filter(({ type, object }) => {
      const uid = object.metadata?.uid;
      if (typeof uid !== 'string' || uid === '') return true;
      const holder = this.holders.get(uid);
      if (type === 'DELETED') {
        if (!holder) return true;
        if (sameIdentity(holder, object)) {
          // The others stay out until they are seen again.
          this.holders.delete(uid);
          this.leftOut.delete(uid);
          return true;
        }
        const others = this.leftOut.get(uid);
        const at = others?.indexOf(identityOf(object)) ?? -1;
        if (at < 0) return true;
        others!.splice(at, 1);
        if (others!.length === 0) this.leftOut.delete(uid);
        return false;
      }
      if (!holder || sameIdentity(holder, object)) {
        this.holders.set(uid, object);
        return true;
      }
      const identity = identityOf(object);
      const others = this.leftOut.get(uid);
      if (!others) this.leftOut.set(uid, [identity]);
      else if (!others.includes(identity)) others.push(identity);
      return false;
    });
  }

  warnings(): GitlabEnvError[] {
    const warnings: GitlabEnvError[] = [];
    for (const [uid, others] of this.leftOut) {
      const names = [identityOf(this.holders.get(uid)!), ...others];
      warnings.push({
        code: 'UPSTREAM_MALFORMED',
        message: `${names.length} objects share the uid ${uid.slice(
          0,
          64,
        )}: ${names.slice(0, 5).join(', ')}${
          names.length > 5 ? ` and ${names.length - 5} more` : ''
        }; only the first is shown.`,
        resource: names[0],
      });
    }
    return warnings;
  }
}
