import {
  ResourceKey,
  shellWord,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { kubectlResourceName } from './kinds';

/** The kubectl commands that show what the drawer shows, for copy and paste. */
export function kubectlCommands(key: ResourceKey): {
  get: string;
  describe: string;
  events: string;
} {
  const resource = `${kubectlResourceName(key.kind, key.group)} ${shellWord(
    key.name,
  )}`;
  const namespace = key.namespace ? ` -n ${shellWord(key.namespace)}` : '';
  return {
    get: `kubectl get ${resource}${namespace} -o yaml`,
    describe: `kubectl describe ${resource}${namespace}`,
    events: `kubectl events --for ${key.kind.toLocaleLowerCase(
      'en-US',
    )}/${shellWord(key.name)}${namespace}`,
  };
}
