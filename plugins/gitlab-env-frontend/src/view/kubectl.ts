import { ResourceKey } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { kubectlResourceName } from './kinds';

/** The kubectl commands that show what the drawer shows, for copy and paste. */
export function kubectlCommands(key: ResourceKey): {
  get: string;
  describe: string;
  events: string;
} {
  const resource = `${kubectlResourceName(key.kind, key.group)} ${quote(
    key.name,
  )}`;
  const namespace = key.namespace ? ` -n ${quote(key.namespace)}` : '';
  return {
    get: `kubectl get ${resource}${namespace} -o yaml`,
    describe: `kubectl describe ${resource}${namespace}`,
    events: `kubectl events --for ${key.kind.toLocaleLowerCase(
      'en-US',
    )}/${quote(key.name)}${namespace}`,
  };
}

// Kubernetes names are shell-safe; quote anything else defensively.
function quote(value: string): string {
  return /^[A-Za-z0-9._:-]+$/.test(value)
    ? value
    : `'${value.replace(/'/g, `'\\''`)}'`;
}
