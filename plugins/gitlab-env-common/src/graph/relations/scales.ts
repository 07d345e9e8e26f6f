import { isRecord } from '../../k8s/objects';
import { groupOfApiVersion } from '../../k8s/resourceId';
import { Relation, RelationContext } from './types';

/** An HPA's `scaleTargetRef`: the exact object (group included) if present, else by kind and name. */
function scaleTarget(context: RelationContext): number | undefined {
  const { spec } = context.object;
  const target = isRecord(spec) ? spec.scaleTargetRef : undefined;
  if (!isRecord(target)) return undefined;
  const kind = String(target.kind);
  const exact = context.exact({
    group: groupOfApiVersion(target.apiVersion),
    kind,
    namespace: context.node.namespace,
    name: String(target.name),
  });
  return exact ?? context.byKindName(kind, target.name);
}

/** HorizontalPodAutoscaler (any group) → the workload of its `spec.scaleTargetRef`. */
export const scales: Relation = {
  type: 'scales',
  placesUnowned: true,
  sources: [
    {
      id: 'scales/hpa-target',
      kinds: [{ kind: 'HorizontalPodAutoscaler' }],
      infer: context =>
        context.add(context.origin, scaleTarget(context), 'scales'),
    },
  ],
};
