import {
  DocumentNode,
  FragmentDefinitionNode,
  Kind,
  SelectionSetNode,
} from 'graphql';

/**
 * GitLab's query depth limits (GitlabSchema: 15 for anonymous callers, 20
 * when authenticated; contracts §1.1). Depth counts nested fields, with
 * fragments expanded in place.
 */
export const MAX_DEPTH = { anonymous: 15, authenticated: 20 };

function selectionDepth(
  set: SelectionSetNode | undefined,
  fragments: Map<string, FragmentDefinitionNode>,
  seen: Set<string>,
): number {
  if (!set) return 0;
  let deepest = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      deepest = Math.max(
        deepest,
        1 + selectionDepth(selection.selectionSet, fragments, seen),
      );
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      deepest = Math.max(
        deepest,
        selectionDepth(selection.selectionSet, fragments, seen),
      );
    } else {
      const fragment = fragments.get(selection.name.value);
      if (fragment && !seen.has(fragment.name.value)) {
        deepest = Math.max(
          deepest,
          selectionDepth(
            fragment.selectionSet,
            fragments,
            new Set([...seen, fragment.name.value]),
          ),
        );
      }
    }
  }
  return deepest;
}

/** The deepest operation of a document. */
export function queryDepth(document: DocumentNode): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION)
      fragments.set(definition.name.value, definition);
  }
  return Math.max(
    0,
    ...document.definitions.map(d =>
      d.kind === Kind.OPERATION_DEFINITION
        ? selectionDepth(d.selectionSet, fragments, new Set())
        : 0,
    ),
  );
}
