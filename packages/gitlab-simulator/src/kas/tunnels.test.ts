import { AgentTunnels, REAL_TUNNEL_POOL, TunnelNotFoundError } from './tunnels';

describe('agentk tunnels and KAS tunnel search', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('KAS searches 20 s for a tunnel of a disconnected agent, then gives up (router_kas.go routingTunnelFindTimeout)', async () => {
    const tunnels = new AgentTunnels(REAL_TUNNEL_POOL, false);
    const outcome = tunnels.acquire().then(
      () => 'tunnel',
      error => error,
    );
    await jest.advanceTimersByTimeAsync(19_999);
    let settled = false;
    outcome.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await outcome).toBeInstanceOf(TunnelNotFoundError);
  });

  it('agentk keeps 2 idle tunnels and opens 10 more at a time (reverse_tunnel/agent/factory.go)', async () => {
    const tunnels = new AgentTunnels(REAL_TUNNEL_POOL, true);
    const counter = { granted: 0 };
    const grant = () => {
      counter.granted += 1;
    };
    for (let i = 0; i < 30; i++) tunnels.acquire().then(grant);
    await Promise.resolve();
    expect(counter.granted).toBe(2);
    await jest.advanceTimersByTimeAsync(REAL_TUNNEL_POOL.connectMs);
    expect(counter.granted).toBe(12);
    await jest.advanceTimersByTimeAsync(REAL_TUNNEL_POOL.connectMs);
    expect(counter.granted).toBe(22);
    await jest.advanceTimersByTimeAsync(REAL_TUNNEL_POOL.connectMs);
    expect(counter.granted).toBe(30);
    expect(tunnels.peakBusy).toBe(30);
  });

  it('a request waiting when the agent reconnects gets a tunnel', async () => {
    const tunnels = new AgentTunnels(REAL_TUNNEL_POOL, false);
    const release = tunnels.acquire();
    await jest.advanceTimersByTimeAsync(5_000);
    tunnels.setConnected(true);
    await expect(release).resolves.toEqual(expect.any(Function));
  });
});
