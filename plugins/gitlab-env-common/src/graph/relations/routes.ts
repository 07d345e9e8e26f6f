import { NameList, ingressServiceNames } from '../references';
import { Relation } from './types';

const names = new NameList();

/** Ingress (any group) → Service: rules and default backend, legacy `serviceName` included. */
export const routes: Relation = {
  type: 'routes',
  placesUnowned: true,
  sources: [
    {
      id: 'routes/ingress-services',
      kinds: [{ kind: 'Ingress' }],
      infer: context => {
        ingressServiceNames(context.object, names);
        for (let n = 0; n < names.count; n++)
          context.add(
            context.origin,
            context.byKindName('Service', names.names[n]),
            'routes',
          );
      },
    },
  ],
};
