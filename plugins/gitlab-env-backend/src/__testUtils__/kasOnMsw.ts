import { registerMswTestHooks } from '@backstage/backend-test-utils';
import { setupServer } from 'msw/node';
import { KasClient } from '../transport/kasClient';

export const MSW_KAS = 'https://kas.test/k8s-proxy';

/**
 * An msw server standing in for KAS (its hooks registered in the calling
 * test file) and a KasClient for agent 7 talking to it.
 */
export function kasOnMsw() {
  const server = setupServer();
  registerMswTestHooks(server);
  const agent = { id: '7', name: 'prod' };
  const kas = new KasClient(
    { kasProxyUrl: MSW_KAS, token: 'glpat-x', agent },
    2000,
    fn => fn(),
    { maxBytes: 1e6 },
  );
  return { server, agent, kas };
}
