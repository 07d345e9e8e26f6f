import type { StaleNamespace, StaleNamespacesStreamLine } from './api';
import {
  addStaleNamespacesLine,
  NO_STALE_NAMESPACES_YET,
} from './staleNamespacesStream';

function stale(name: string, agentId: string, total: number): StaleNamespace {
  return {
    name,
    agent: { id: agentId, name: `agent-${agentId}` },
    entityRef: 'component:default/storefront',
    projectPath: 'acme/shop/storefront',
    reasons: [],
    creator: 'unknown',
    gitlabDeletes: false,
    contents: {
      counts: {},
      total,
      runningPods: 0,
      runningWorkloads: 0,
      uncounted: [],
    },
    kubectl: `kubectl delete namespace ${name}`,
  };
}

const fold = (lines: StaleNamespacesStreamLine[]) =>
  lines.reduce(addStaleNamespacesLine, NO_STALE_NAMESPACES_YET);

describe('the clean-up list folded from its stream', () => {
  it('keeps an agent pending until its own line, whatever the others answered', () => {
    const sofar = fold([
      { type: 'start', entities: 2 },
      {
        type: 'entity',
        entityRef: 'component:default/storefront',
        agents: ['prod-us', 'edge'],
      },
      {
        type: 'agent',
        entityRef: 'component:default/storefront',
        agent: 'prod-us',
        namespaces: [stale('small', '1', 2), stale('big', '1', 9)],
      },
    ]);
    expect(sofar.namespaces.map(n => n.name)).toEqual(['big', 'small']);
    expect(sofar.pending).toEqual([
      { entityRef: 'component:default/storefront', agent: 'edge' },
    ]);
    expect(sofar.done).toBe(false);
  });

  it('lists a namespace two entities see once, and each failure with its agent', () => {
    const sofar = fold([
      { type: 'entity', entityRef: 'component:default/a', agents: ['prod-us'] },
      {
        type: 'entity',
        entityRef: 'component:default/b',
        agents: ['prod-us', 'edge'],
      },
      {
        type: 'agent',
        entityRef: 'component:default/a',
        agent: 'prod-us',
        namespaces: [stale('shared', '1', 3)],
      },
      {
        type: 'agent',
        entityRef: 'component:default/b',
        agent: 'prod-us',
        namespaces: [stale('shared', '1', 3), stale('other', '1', 5)],
      },
      {
        type: 'agent',
        entityRef: 'component:default/b',
        agent: 'edge',
        namespaces: [],
        error: {
          code: 'AGENT_NOT_CONNECTED',
          message: 'edge is not connected',
        },
      },
      { type: 'done', elapsedMs: 12 },
    ]);
    expect(sofar.namespaces.map(n => n.name)).toEqual(['other', 'shared']);
    expect(sofar.errors).toEqual([
      {
        agent: 'edge',
        entityRef: 'component:default/b',
        error: {
          code: 'AGENT_NOT_CONNECTED',
          message: 'edge is not connected',
        },
      },
    ]);
    expect(sofar.pending).toEqual([]);
    expect(sofar.done).toBe(true);
  });

  it('drops an entity that failed whole from the pending agents', () => {
    const sofar = fold([
      { type: 'entity', entityRef: 'component:default/a', agents: ['prod-us'] },
      {
        type: 'entityError',
        entityRef: 'component:default/a',
        error: { code: 'UPSTREAM_TIMEOUT', message: 'GitLab did not answer' },
      },
    ]);
    expect(sofar.pending).toEqual([]);
    expect(sofar.errors).toHaveLength(1);
  });
});
