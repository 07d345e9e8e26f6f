import { claimTemplateNames, podReferenceNames } from '../references';
import { Relation } from './types';

/**
 * Pod → its `persistentVolumeClaim` volumes; StatefulSet → the claims of
 * its `volumeClaimTemplates`, named `<template>-<statefulset>-<ordinal>`.
 */
export const mounts: Relation = {
  type: 'mounts',
  rules: [
    {
      kind: 'Pod',
      group: '',
      infer: context => {
        const { names } = context;
        podReferenceNames(context.object, 'PersistentVolumeClaim', names);
        for (let n = 0; n < names.count; n++)
          context.add(
            context.index,
            context.byKindName('PersistentVolumeClaim', names.names[n]),
            'mounts',
          );
      },
    },
    {
      kind: 'StatefulSet',
      group: 'apps',
      infer: context => {
        const templates = context.names;
        claimTemplateNames(context.object, templates);
        for (let t = 0; t < templates.count; t++) {
          const stem = `${templates.names[t]}-${context.node.name}`;
          for (const claim of context.claimsByStem(stem))
            context.add(context.index, claim, 'mounts');
        }
      },
    },
  ],
};
