import type {
  StaleNamespace,
  StaleNamespacesSoFar,
  StaleNamespacesStreamLine,
} from './api';

/** Biggest first, then by name: the clean-up list's order. @public */
export function compareStaleNamespaces(
  a: StaleNamespace,
  b: StaleNamespace,
): number {
  return b.contents.total - a.contents.total || a.name.localeCompare(b.name);
}

/**
 * Adds one stream line to the list so far (a new object; `sofar` is left
 * as it was). Two entities of one project see the same namespace: it is
 * listed once.
 *
 * @public
 */
export function addStaleNamespacesLine(
  sofar: StaleNamespacesSoFar,
  line: StaleNamespacesStreamLine,
): StaleNamespacesSoFar {
  switch (line.type) {
    case 'entity':
      return {
        ...sofar,
        pending: [
          ...sofar.pending,
          ...line.agents.map(agent => ({ entityRef: line.entityRef, agent })),
        ],
      };
    case 'agent': {
      const seen = new Set(
        sofar.namespaces.map(n => `${n.agent.id}|${n.name}`),
      );
      const added = line.namespaces.filter(
        n => !seen.has(`${n.agent.id}|${n.name}`),
      );
      return {
        ...sofar,
        namespaces: added.length
          ? [...sofar.namespaces, ...added].sort(compareStaleNamespaces)
          : sofar.namespaces,
        errors: line.error
          ? [
              ...sofar.errors,
              {
                agent: line.agent,
                entityRef: line.entityRef,
                error: line.error,
              },
            ]
          : sofar.errors,
        pending: sofar.pending.filter(
          p => p.entityRef !== line.entityRef || p.agent !== line.agent,
        ),
      };
    }
    case 'entityError':
      return {
        ...sofar,
        errors: [
          ...sofar.errors,
          { entityRef: line.entityRef, error: line.error },
        ],
        pending: sofar.pending.filter(p => p.entityRef !== line.entityRef),
      };
    case 'done':
      return { ...sofar, done: true };
    default:
      return sofar;
  }
}

/** The list before any line. @public */
export const NO_STALE_NAMESPACES_YET: StaleNamespacesSoFar = {
  namespaces: [],
  errors: [],
  pending: [],
  done: false,
};
