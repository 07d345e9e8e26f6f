import { NameList, PodReference, podReferenceNames } from '../references';
import { Relation, RelationContext } from './types';

const names = new NameList();
const REFERENCED: readonly PodReference[] = ['ConfigMap', 'Secret'];

/** Pod → ConfigMap / Secret: volumes (projected included), `envFrom` and `env[].valueFrom`. */
function podUses(context: RelationContext) {
  for (const kind of REFERENCED) {
    podReferenceNames(context.object, kind, names);
    for (let n = 0; n < names.count; n++)
      context.add(
        context.origin,
        context.byKindName(kind, names.names[n]),
        'uses',
      );
  }
}

/** Pod → the ConfigMaps and Secrets it reads. */
export const uses: Relation = {
  type: 'uses',
  sources: [
    {
      id: 'uses/pod-config',
      kinds: [{ kind: 'Pod', group: '' }],
      infer: podUses,
    },
  ],
};
