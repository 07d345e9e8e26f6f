import { serviceSelector } from '../references';
import { Relation } from './types';

/** Service → Pod: every string pair of `spec.selector` matches, same namespace. */
export const selects: Relation = {
  type: 'selects',
  rules: [
    {
      kind: 'Service',
      group: '',
      infer: context => {
        const selector = serviceSelector(context.object);
        if (!selector) return;
        for (const pod of context.selectPods(selector))
          context.add(context.index, pod, 'selects');
      },
    },
  ],
};
