import { specOf } from '../../k8s/objects';
import { fluxDependencyOf } from '../../k8s/flux';
import { Relation, RelationContext } from './types';

/**
 * A Flux applier → each object of its `spec.dependsOn`: same kind and group
 * unless the entry names them (ResourceSet), namespace defaulting to the
 * dependent's (https://fluxcd.io/flux/components/kustomize/kustomizations/#dependencies).
 */
function dependencies(context: RelationContext) {
  const dependsOn = specOf(context.object).dependsOn;
  if (!Array.isArray(dependsOn)) return;
  context.forEach(dependsOn, dependency);
}

function dependency(entry: unknown, context: RelationContext) {
  const key = fluxDependencyOf(entry, context.object);
  if (key) context.add(context.origin, context.exact(key), 'dependsOn');
}

/** Kustomization / HelmRelease / ResourceSet → what must be ready before it applies. */
export const dependsOn: Relation = {
  type: 'dependsOn',
  sources: [
    {
      id: 'dependsOn/flux-dependencies',
      kinds: [
        { kind: 'Kustomization', group: 'kustomize.toolkit.fluxcd.io' },
        { kind: 'HelmRelease', group: 'helm.toolkit.fluxcd.io' },
        { kind: 'ResourceSet', group: 'fluxcd.controlplane.io' },
      ],
      infer: dependencies,
    },
  ],
};
