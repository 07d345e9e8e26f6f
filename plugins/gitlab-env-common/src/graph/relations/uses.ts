import { podReferencesOf } from '../references';
import { Relation, RelationContext } from './types';

/** Pod → ConfigMap / Secret: volumes (projected included), `envFrom` and `env[].valueFrom`. */
function podUses(context: RelationContext) {
  const { configMaps, secrets } = podReferencesOf(context.object);
  for (let n = 0; n < configMaps.count; n++)
    context.add(
      context.origin,
      context.byKindName('ConfigMap', configMaps.names[n]),
      'uses',
    );
  for (let n = 0; n < secrets.count; n++)
    context.add(
      context.origin,
      context.byKindName('Secret', secrets.names[n]),
      'uses',
    );
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
