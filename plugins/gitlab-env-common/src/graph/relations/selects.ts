import { serviceSelector } from '../references';
import { Relation } from './types';

/** Service → Pod: every string pair of `spec.selector` matches, same namespace. */
export const selects: Relation = {
  type: 'selects',
  sources: [
    {
      id: 'selects/service-pods',
      kinds: [{ kind: 'Service', group: '' }],
      infer: context => {
        const selector = serviceSelector(context.object);
        if (!selector) return;
        for (const pod of context.selectPods(selector))
          context.add(context.origin, pod, 'selects');
      },
    },
  ],
};
