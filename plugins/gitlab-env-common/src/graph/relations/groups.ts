import { NO_FIELDS, isRecord } from '../../k8s/objects';
import {
  PARENT_RANK,
  REFERENCE_LABELS,
  Relation,
  RelationContext,
} from './types';

/** `componentKinds` as group/kind keys; `core`, `v1` and '' are the core group. */
function componentKinds(value: unknown): Set<string> {
  const kinds = new Set<string>();
  if (!Array.isArray(value)) return kinds;
  for (const entry of value) {
    if (!isRecord(entry) || typeof entry.kind !== 'string') continue;
    const group = typeof entry.group === 'string' ? entry.group : '';
    kinds.add(
      `${group === 'core' || group === 'v1' ? '' : group}/${entry.kind}`,
    );
  }
  return kinds;
}

/** Whether labels satisfy a LabelSelector (matchLabels and matchExpressions). */
function selects(
  selector: Record<string, unknown>,
  labels: Readonly<Record<string, unknown>>,
): boolean {
  const matchLabels = isRecord(selector.matchLabels)
    ? selector.matchLabels
    : NO_FIELDS;
  for (const key of Object.keys(matchLabels))
    if (labels[key] !== matchLabels[key]) return false;
  const expressions = selector.matchExpressions;
  if (!Array.isArray(expressions)) return true;
  for (const expression of expressions) {
    if (!isRecord(expression) || typeof expression.key !== 'string')
      return false;
    const value = labels[expression.key];
    const values = Array.isArray(expression.values) ? expression.values : [];
    switch (expression.operator) {
      case 'In':
        if (typeof value !== 'string' || !values.includes(value)) return false;
        break;
      case 'NotIn':
        if (typeof value === 'string' && values.includes(value)) return false;
        break;
      case 'Exists':
        if (value === undefined) return false;
        break;
      case 'DoesNotExist':
        if (value !== undefined) return false;
        break;
      default:
        // An operator Kubernetes does not know selects nothing.
        return false;
    }
  }
  return true;
}

/**
 * An app.k8s.io Application (kubernetes-sigs/application) groups the
 * objects of its namespace whose kind is one of its `componentKinds` and
 * whose labels its `selector` selects, and those its controller lists in
 * `status.components`. Candidates are found through a recommended label
 * of the selector's matchLabels (app.kubernetes.io/name, /instance or
 * /part-of, which the project's documentation selects by): a selector
 * without one selects through `status.components` only.
 */
function applicationComponents(context: RelationContext) {
  const { object, node } = context;
  const spec = isRecord(object.spec) ? object.spec : NO_FIELDS;
  const kinds = componentKinds(spec.componentKinds);
  const selector = isRecord(spec.selector) ? spec.selector : undefined;
  const matchLabels =
    selector && isRecord(selector.matchLabels)
      ? selector.matchLabels
      : NO_FIELDS;
  const indexed = REFERENCE_LABELS.find(
    label => typeof matchLabels[label] === 'string',
  );
  if (selector && indexed && kinds.size > 0) {
    for (const candidate of context.byReferenceLabel(
      indexed,
      matchLabels[indexed] as string,
    )) {
      const component = context.nodeAt(candidate);
      if (
        component.namespace === node.namespace &&
        kinds.has(`${component.group}/${component.kind}`) &&
        selects(selector, context.labelsOf(candidate))
      )
        context.add(context.origin, candidate, 'manages', PARENT_RANK.manages);
    }
  }
  const status = isRecord(object.status) ? object.status : NO_FIELDS;
  if (!Array.isArray(status.components)) return;
  for (const listed of status.components) {
    if (!isRecord(listed) || typeof listed.kind !== 'string') continue;
    const found = context.byKindName(listed.kind, listed.name);
    if (found === undefined) continue;
    const group = typeof listed.group === 'string' ? listed.group : undefined;
    const component = context.nodeAt(found);
    if (group === undefined || group === component.group)
      context.add(context.origin, found, 'manages', PARENT_RANK.manages);
  }
}

/** app.k8s.io Application → the components it groups (the root of its application). */
export const groups: Relation = {
  type: 'manages',
  sources: [
    {
      id: 'manages/application-components',
      kinds: [{ kind: 'Application', group: 'app.k8s.io' }],
      infer: applicationComponents,
    },
  ],
};
