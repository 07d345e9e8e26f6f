import { mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { stringify } from 'yaml';

export interface KubeconfigOptions {
  /** The cluster server URL, e.g. the simulator's `kasProxyUrl`. */
  server: string;
  /** The bearer token, e.g. `pat:<agent id>:<personal access token>` for KAS. */
  token: string;
  /** PEM CA to trust (the simulator's certificate); omitted for plain HTTP. */
  certificateAuthority?: string;
  namespace?: string;
  /** Where to write it; default a new temporary directory. */
  path?: string;
}

/** Writes a kubeconfig for kubectl (or any client) pointing at the simulator; returns its path. */
export function writeKubeconfig(options: KubeconfigOptions): string {
  const path =
    options.path ??
    join(mkdtempSync(join(tmpdir(), 'gitlab-simulator-')), 'kubeconfig');
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'simulator',
        cluster: {
          server: options.server,
          ...(options.certificateAuthority
            ? {
                'certificate-authority-data': Buffer.from(
                  options.certificateAuthority,
                ).toString('base64'),
              }
            : {}),
        },
      },
    ],
    users: [{ name: 'simulator', user: { token: options.token } }],
    contexts: [
      {
        name: 'simulator',
        context: {
          cluster: 'simulator',
          user: 'simulator',
          ...(options.namespace ? { namespace: options.namespace } : {}),
        },
      },
    ],
    'current-context': 'simulator',
  };
  writeFileSync(path, stringify(config), { mode: 0o600 });
  return path;
}
