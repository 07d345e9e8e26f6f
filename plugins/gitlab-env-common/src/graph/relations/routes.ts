import { ingressServiceNames } from '../references';
import { Relation } from './types';

/** Ingress (any group) → Service: rules and default backend, legacy `serviceName` included. */
export const routes: Relation = {
  type: 'routes',
  placesUnowned: true,
  rules: [
    {
      kind: 'Ingress',
      infer: context => {
        const { names } = context;
        ingressServiceNames(context.object, names);
        for (let n = 0; n < names.count; n++)
          context.add(
            context.index,
            context.byKindName('Service', names.names[n]),
            'routes',
          );
      },
    },
  ],
};
