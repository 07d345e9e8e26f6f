import { isRecord, annotationsOf, labelsOf } from '../../k8s/objects';
import { PARENT_RANK, Relation, RelationContext } from './types';

/** `metadata.ownerReferences`: by uid, else by kind and name in the same namespace. */
function ownerReferences(context: RelationContext) {
  const owners = context.object.metadata?.ownerReferences;
  if (!Array.isArray(owners)) return;
  for (const owner of owners) {
    if (!isRecord(owner)) continue;
    const owning =
      (typeof owner.uid === 'string' ? context.byUid(owner.uid) : undefined) ??
      context.byKindName(String(owner.kind), owner.name);
    context.add(
      owning,
      context.origin,
      'owns',
      owner.controller === true ? PARENT_RANK.controller : PARENT_RANK.owns,
    );
  }
}

/** Owner → owned: owner references, Service → EndpointSlice / Endpoints, ServiceAccount → token Secret. */
export const owns: Relation = {
  type: 'owns',
  sources: [
    { id: 'owns/owner-references', infer: ownerReferences },
    {
      id: 'owns/endpoint-slice-service',
      kinds: [{ kind: 'EndpointSlice', group: 'discovery.k8s.io' }],
      infer: context =>
        context.add(
          context.byKindName(
            'Service',
            labelsOf(context.object)['kubernetes.io/service-name'],
          ),
          context.origin,
          'owns',
          PARENT_RANK.owns,
        ),
    },
    {
      id: 'owns/endpoints-service',
      kinds: [{ kind: 'Endpoints', group: '' }],
      infer: context =>
        context.add(
          context.byKindName('Service', context.node.name),
          context.origin,
          'owns',
          PARENT_RANK.owns,
        ),
    },
    {
      id: 'owns/service-account-token',
      kinds: [{ kind: 'Secret', group: '' }],
      infer: context => {
        if (context.object.type !== 'kubernetes.io/service-account-token')
          return;
        context.add(
          context.byKindName(
            'ServiceAccount',
            annotationsOf(context.object)['kubernetes.io/service-account.name'],
          ),
          context.origin,
          'owns',
          PARENT_RANK.owns,
        );
      },
    },
  ],
};
