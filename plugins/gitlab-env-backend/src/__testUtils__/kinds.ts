import type { ListableKind } from '../reading/discovery';

/** Pods as discovery lists them: the kind tests list most. */
export const POD_KIND: ListableKind = {
  group: '',
  version: 'v1',
  plural: 'pods',
  kind: 'Pod',
  label: 'Pod',
  basePath: '/api/v1',
};
