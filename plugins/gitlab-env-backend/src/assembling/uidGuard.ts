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

/**
 * Distinct objects sharing a uid break the API's promise: the first one an
 * environment holds is kept, the others are left out and named in one
 * warning per uid, never merged silently into one node.
 */
export class UidGuard {
  /** uid → the identity holding it, then those left out. */
  private readonly byUid = new Map<string, string[]>();

  /** The events, without those of an object whose uid another object holds. */
  filter(events: readonly WatchEvent[]): WatchEvent[] {
    return events.filter(({ type, object }) => {
      const uid = object.metadata?.uid;
      if (typeof uid !== 'string' || uid === '') return true;
      const identity = identityOf(object);
      const held = this.byUid.get(uid);
      if (type === 'DELETED') {
        if (!held) return true;
        const at = held.indexOf(identity);
        if (at > 0) held.splice(at, 1);
        else if (at === 0) this.byUid.delete(uid);
        return at <= 0;
      }
      if (!held) {
        this.byUid.set(uid, [identity]);
        return true;
      }
      if (held[0] === identity) return true;
      if (!held.includes(identity)) held.push(identity);
      return false;
    });
  }

  warnings(): GitlabEnvError[] {
    const warnings: GitlabEnvError[] = [];
    for (const [uid, names] of this.byUid) {
      if (names.length < 2) continue;
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
