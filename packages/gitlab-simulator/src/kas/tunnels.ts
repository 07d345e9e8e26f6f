/**
 * agentk's reverse tunnels to KAS, per agent, and KAS's search for a free one.
 *
 * - KAS looks for a tunnel of the agent for up to 20 s (`routingTunnelFindTimeout`
 *   in gitlab-agent `cmd/kas/kasapp/router_kas.go`), then answers 502 with gRPC
 *   DeadlineExceeded "Agent connection not found. Is agent up to date and connected?".
 * - agentk keeps 2 idle tunnels open and, when they are taken, opens 10 more
 *   at a time, up to 500 (gitlab-agent `internal/module/reverse_tunnel/agent/factory.go`).
 *   A tunnel serves one request at a time; a request without one waits in KAS.
 * How long agentk takes to open a tunnel and how long a request holds it are
 * not in the sources: `connectMs` and `roundTripMs` are modelling parameters.
 */

export interface TunnelPoolOptions {
  /** KAS's tunnel search timeout. */
  findTimeoutMs: number;
  minIdle: number;
  scaleUpStep: number;
  max: number;
  /** Time agentk needs to open one more tunnel to KAS. */
  connectMs: number;
  /**
   * Time a request holds its tunnel beyond the simulated API server's own
   * work: the KAS↔agentk↔kube-apiserver round trip (0 by default).
   */
  roundTripMs: number;
}

export const REAL_TUNNEL_POOL: TunnelPoolOptions = {
  findTimeoutMs: 20_000,
  minIdle: 2,
  scaleUpStep: 10,
  max: 500,
  connectMs: 50,
  roundTripMs: 0,
};

export class TunnelNotFoundError extends Error {
  constructor() {
    super('Agent connection not found. Is agent up to date and connected?');
  }
}

interface Waiter {
  grant: () => void;
  timer: ReturnType<typeof setTimeout>;
}

/** The tunnels of one agent. */
export class AgentTunnels {
  private open = 0;
  private busy = 0;
  private connecting = 0;
  private readonly waiters: Waiter[] = [];
  /** Peak of tunnels in use at once, for benchmarks. */
  peakBusy = 0;
  /** Requests that waited in KAS for a free tunnel, and the longest wait. */
  waited = 0;
  maxWaitMs = 0;

  constructor(readonly options: TunnelPoolOptions, private connected: boolean) {
    if (connected) this.open = options.minIdle;
  }

  /** agentk (dis)connects: its tunnels go away with it, or it opens its idle ones. */
  setConnected(connected: boolean) {
    if (connected === this.connected) return;
    this.connected = connected;
    if (!connected) {
      this.open = this.busy;
    } else {
      this.open = Math.max(this.open, this.options.minIdle);
      this.serveWaiters();
    }
  }

  /** Waits for a free tunnel; the returned function gives it back. */
  acquire(): Promise<() => void> {
    return new Promise((resolve, reject) => {
      let released = false;
      const take = () => {
        this.busy += 1;
        this.peakBusy = Math.max(this.peakBusy, this.busy);
        this.scaleUp();
        resolve(() => {
          if (released) return;
          released = true;
          this.busy -= 1;
          if (!this.connected) this.open -= 1;
          this.serveWaiters();
        });
      };
      if (this.connected && this.busy < this.open) {
        take();
        return;
      }
      const queuedAt = Date.now();
      const waiter: Waiter = {
        grant: () => {
          this.waited += 1;
          this.maxWaitMs = Math.max(this.maxWaitMs, Date.now() - queuedAt);
          take();
        },
        timer: setTimeout(() => {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          reject(new TunnelNotFoundError());
        }, this.options.findTimeoutMs),
      };
      this.waiters.push(waiter);
      this.scaleUp();
    });
  }

  /**
   * agentk opens `scaleUpStep` more tunnels when fewer than `minIdle` are idle
   * or being opened; it cannot see the requests waiting inside KAS.
   */
  private scaleUp() {
    if (!this.connected) return;
    const idle = this.open + this.connecting - this.busy;
    if (idle >= this.options.minIdle) return;
    const step = Math.min(
      this.options.scaleUpStep,
      this.options.max - this.open - this.connecting,
    );
    if (step <= 0) return;
    this.connecting += step;
    setTimeout(() => {
      this.connecting -= step;
      if (!this.connected) return;
      this.open += step;
      this.serveWaiters();
    }, this.options.connectMs).unref?.();
  }

  private serveWaiters() {
    while (this.connected && this.busy < this.open && this.waiters.length) {
      const waiter = this.waiters.shift()!;
      clearTimeout(waiter.timer);
      waiter.grant();
    }
    this.scaleUp();
  }
}
