import { fluxSourceKeyOf } from '../../k8s/flux';
import { Relation, RelationContext } from './types';

/** A Flux applier or HelmChart → the source whose artifact it reads. */
function fluxSource(context: RelationContext) {
  const key = fluxSourceKeyOf(context.object);
  if (key) context.add(context.origin, context.exact(key), 'sources');
}

/** Kustomization / HelmRelease / HelmChart → GitRepository, OCIRepository, HelmRepository, HelmChart, Bucket. */
export const sources: Relation = {
  type: 'sources',
  sources: [
    {
      id: 'sources/flux-source',
      kinds: [
        { kind: 'Kustomization', group: 'kustomize.toolkit.fluxcd.io' },
        { kind: 'HelmRelease', group: 'helm.toolkit.fluxcd.io' },
        { kind: 'HelmChart', group: 'source.toolkit.fluxcd.io' },
      ],
      infer: fluxSource,
    },
  ],
};
