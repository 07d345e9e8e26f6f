import { GitlabEnvFailure } from '../errors';
import type { AgentActivity } from '../transport/gitlabClient';
import { GitlabEnvTransport } from '../transport/SharedTransport';
import {
  ACTIVE_CONNECTION_MS,
  AgentConnections,
  connectionStateOf,
} from './agentConnection';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe('connectionStateOf: GitLab read as its agents page reads it', () => {
  it.each<[string, AgentActivity | undefined, string]>([
    ['agent hidden from the user', undefined, 'unknown'],
    ['a live connection', { connections: 1, tokensShown: 0 }, 'connected'],
    [
      'neither connections nor tokens shown (not a Maintainer, old version)',
      { connections: 0, tokensShown: 0 },
      'unknown',
    ],
    [
      'tokens shown, none ever used',
      { connections: 0, tokensShown: 1 },
      'neverConnected',
    ],
    [
      'a token used a minute ago, no connection shown',
      { connections: 0, tokensShown: 1, tokenLastUsedAt: ago(60_000) },
      'connected',
    ],
    [
      'a token used just within ACTIVE_CONNECTION_TIME',
      {
        tokensShown: 2,
        tokenLastUsedAt: ago(ACTIVE_CONNECTION_MS - 1),
      },
      'connected',
    ],
    [
      'a token last used two hours ago',
      { connections: 0, tokensShown: 1, tokenLastUsedAt: ago(7_200_000) },
      'notConnected',
    ],
    [
      'connections failed (no KAS) and an old token',
      { tokensShown: 1, tokenLastUsedAt: ago(ACTIVE_CONNECTION_MS) },
      'notConnected',
    ],
  ])('%s', (_, activity, state) => {
    expect(connectionStateOf(activity, NOW).state).toBe(state);
  });
});

const instance = {
  host: 'gitlab.example.com',
  baseUrl: 'https://gitlab.example.com',
  graphqlUrl: 'https://gitlab.example.com/api/graphql',
  token: 't',
} as any;
const edge = {
  id: '5',
  name: 'edge',
  webUrl: 'https://gitlab.example.com/acme/infra/-/cluster_agents/edge',
};
const lookup = {
  instance,
  projectFullPath: 'acme/platform/search-indexer',
  environmentName: 'development',
  agent: edge,
};

/** A transport whose GitLab answers `agentActivity` with what the test sets. */
function fakeTransport() {
  let answer: () => Promise<AgentActivity | undefined> = async () => ({
    connections: 0,
    tokensShown: 1,
    tokenLastUsedAt: ago(7_200_000),
  });
  const agentActivity = jest.fn(() => answer());
  const transport = {
    gitlab: () => ({ agentActivity }),
  } as unknown as GitlabEnvTransport;
  return {
    transport,
    agentActivity,
    answer: (next: () => Promise<AgentActivity | undefined>) => {
      answer = next;
    },
  };
}

describe('AgentConnections', () => {
  let now = NOW;
  beforeEach(() => {
    now = NOW;
  });
  const make = (transport: GitlabEnvTransport) =>
    new AgentConnections(transport, {
      freshMs: 5_000,
      maxAgeMs: 30_000,
      now: () => now,
    });

  it('refuses an agent GitLab says is not connected, with its last contact, as a typed AGENT_NOT_CONNECTED', async () => {
    const { transport } = fakeTransport();
    const error = await make(transport)
      .refuseDisconnected(lookup)
      .catch(e => e);
    expect(error).toBeInstanceOf(GitlabEnvFailure);
    expect(error.detail.code).toBe('AGENT_NOT_CONNECTED');
    expect(error.detail.message).toBe(
      `The agent edge is not connected to GitLab: its agentk last connected 2 hours ago (${ago(
        7_200_000,
      )}), so KAS cannot reach its cluster. GitLab says so; KAS was not asked.`,
    );
    expect(error.detail.hint).toContain(edge.webUrl);
  });

  it('refuses an agent that never connected as AGENT_NEVER_CONNECTED, and lets connected or unknown ones through to KAS', async () => {
    const { transport, answer } = fakeTransport();
    answer(async () => ({ connections: 0, tokensShown: 1 }));
    await expect(
      make(transport).refuseDisconnected(lookup),
    ).rejects.toMatchObject({ detail: { code: 'AGENT_NEVER_CONNECTED' } });
    answer(async () => ({ connections: 1, tokensShown: 1 }));
    await expect(
      make(transport).refuseDisconnected(lookup),
    ).resolves.toBeUndefined();
    answer(async () => ({ connections: 0, tokensShown: 0 }));
    await expect(
      make(transport).refuseDisconnected(lookup),
    ).resolves.toBeUndefined();
    // GitLab failing to answer is no answer: KAS decides.
    answer(async () => {
      throw new Error('GitLab is down');
    });
    await expect(
      make(transport).refuseDisconnected(lookup),
    ).resolves.toBeUndefined();
  });

  it('asks GitLab once for concurrent callers and keeps the answer while fresh', async () => {
    const { transport, agentActivity } = fakeTransport();
    const connections = make(transport);
    const states = await Promise.all([
      connections.state(lookup),
      connections.state(lookup),
      connections.state({ ...lookup, environmentName: 'canary' }),
    ]);
    expect(states.map(s => s.state)).toEqual([
      'notConnected',
      'notConnected',
      'notConnected',
    ]);
    now += 4_999;
    await connections.state(lookup);
    expect(agentActivity).toHaveBeenCalledTimes(1);
  });

  it('serves a kept "not connected" at once once stale and checks again in the background: a reconnected agent is let through on the next read', async () => {
    const { transport, agentActivity, answer } = fakeTransport();
    const connections = make(transport);
    await expect(connections.refuseDisconnected(lookup)).rejects.toThrow();
    // agentk comes back; GitLab knows at once.
    let release!: () => void;
    const recheck = new Promise<void>(resolve => {
      release = resolve;
    });
    answer(async () => {
      await recheck;
      return { connections: 1, tokensShown: 1, tokenLastUsedAt: ago(0) };
    });
    now += 6_000;
    // Stale: the kept answer, without waiting for GitLab (still answering).
    await expect(connections.refuseDisconnected(lookup)).rejects.toMatchObject({
      detail: { code: 'AGENT_NOT_CONNECTED' },
    });
    expect(agentActivity).toHaveBeenCalledTimes(2);
    // One re-check at a time.
    await expect(connections.refuseDisconnected(lookup)).rejects.toThrow();
    expect(agentActivity).toHaveBeenCalledTimes(2);
    release();
    await new Promise(resolve => setImmediate(resolve));
    await expect(
      connections.refuseDisconnected(lookup),
    ).resolves.toBeUndefined();
  });

  it('waits for GitLab again once the kept answer is past its age', async () => {
    const { transport, agentActivity, answer } = fakeTransport();
    const connections = make(transport);
    await expect(connections.refuseDisconnected(lookup)).rejects.toThrow();
    answer(async () => ({ connections: 1, tokensShown: 1 }));
    now += 30_000;
    await expect(
      connections.refuseDisconnected(lookup),
    ).resolves.toBeUndefined();
    expect(agentActivity).toHaveBeenCalledTimes(2);
  });

  it('stops waiting when its caller leaves, answering unknown', async () => {
    const { transport, answer } = fakeTransport();
    answer(() => new Promise(() => undefined));
    const left = new AbortController();
    const state = make(transport).state(lookup, left.signal);
    left.abort();
    await expect(state).resolves.toEqual({ state: 'unknown' });
  });

  it("takes another replica's fresh answer from the shared store instead of asking GitLab", async () => {
    const kept = new Map<string, unknown>();
    const store = {
      get: async <T>(key: string) => kept.get(key) as T | undefined,
      set: (key: string, value: unknown) => void kept.set(key, value),
      delete: (key: string) => void kept.delete(key),
    };
    const replica = (transport: GitlabEnvTransport) =>
      new AgentConnections(transport, {
        freshMs: 5_000,
        maxAgeMs: 30_000,
        now: () => now,
        shared: store,
      });
    const first = fakeTransport();
    await expect(
      replica(first.transport).refuseDisconnected(lookup),
    ).rejects.toMatchObject({ detail: { code: 'AGENT_NOT_CONNECTED' } });
    const second = fakeTransport();
    await expect(
      replica(second.transport).refuseDisconnected(lookup),
    ).rejects.toMatchObject({ detail: { code: 'AGENT_NOT_CONNECTED' } });
    expect(second.agentActivity).not.toHaveBeenCalled();
    // Once the shared answer is no longer fresh, GitLab is asked again.
    now += 6_000;
    const third = fakeTransport();
    await replica(third.transport)
      .refuseDisconnected(lookup)
      .catch(() => undefined);
    expect(third.agentActivity).toHaveBeenCalledTimes(1);
  });

  it("takes a listing's connection state as GitLab's answer, asking only of the agents it did not show", async () => {
    const { transport, agentActivity } = fakeTransport();
    const connections = make(transport);
    const prodUs = { id: '1', name: 'prod-us' };
    connections.seed(
      instance,
      'acme/platform/search-indexer',
      [
        { name: 'development', agent: edge },
        { name: 'production', agent: prodUs },
        { name: 'lab', agent: { id: '9', name: 'lab' } },
      ],
      {
        [edge.id]: { tokensShown: 1, tokenLastUsedAt: ago(7_200_000) },
        [prodUs.id]: { connections: 1, tokensShown: 1 },
      },
    );
    // lab was not shown: asked as a prefetch asks.
    expect(agentActivity).toHaveBeenCalledTimes(1);
    await expect(connections.refuseDisconnected(lookup)).rejects.toMatchObject({
      detail: { code: 'AGENT_NOT_CONNECTED' },
    });
    await expect(
      connections.refuseDisconnected({ ...lookup, agent: prodUs }),
    ).resolves.toBeUndefined();
    expect(agentActivity).toHaveBeenCalledTimes(1);
    // As old as the listing: checked again in the background once stale.
    now += 5_000;
    await connections.state(lookup);
    expect(agentActivity).toHaveBeenCalledTimes(2);
  });

  it('prefetches one answer per agent of a listing', async () => {
    const { transport, agentActivity } = fakeTransport();
    make(transport).prefetch(instance, 'acme/platform/search-indexer', [
      { name: 'development', agent: edge },
      { name: 'canary', agent: edge },
      { name: 'docs' },
      { name: 'production', agent: { id: '1', name: 'prod-us' } },
    ]);
    expect(agentActivity).toHaveBeenCalledTimes(2);
  });
});
