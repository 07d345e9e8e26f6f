import { NameList, claimTemplateNames, podReferencesOf } from '../references';
import { Relation } from './types';

const names = new NameList();

/**
 * Pod → its `persistentVolumeClaim` volumes; StatefulSet → the claims of
 * its `volumeClaimTemplates`, named `<template>-<statefulset>-<ordinal>`.
 */
export const mounts: Relation = {
  type: 'mounts',
  sources: [
    {
      id: 'mounts/pod-claims',
      kinds: [{ kind: 'Pod', group: '' }],
      infer: context => {
        const { claims } = podReferencesOf(context.object);
        for (let n = 0; n < claims.count; n++)
          context.add(
            context.origin,
            context.byKindName('PersistentVolumeClaim', claims.names[n]),
            'mounts',
          );
      },
    },
    {
      id: 'mounts/stateful-set-claims',
      kinds: [{ kind: 'StatefulSet', group: 'apps' }],
      infer: context => {
        claimTemplateNames(context.object, names);
        for (let t = 0; t < names.count; t++) {
          const stem = `${names.names[t]}-${context.node.name}`;
          for (const claim of context.claimsByStem(stem))
            context.add(context.origin, claim, 'mounts');
        }
      },
    },
  ],
};
