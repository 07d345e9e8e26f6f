import { ScenarioAgent } from '../scenario/types';

/**
 * Whether agentk is connected to KAS now, and when GitLab last saw it: what
 * KAS's tunnel search (proxy.ts) and GitLab's GraphQL (`ClusterAgent.connections`,
 * `ClusterAgentToken.lastUsedAt`) both answer from, so the two never disagree.
 */
export interface AgentPresence {
  connected: boolean;
  /**
   * The last use of the agent's token. agentk authenticates with it on every
   * call to KAS, and GitLab reads it from Redis (`Clusters::AgentToken`
   * `cached_attr_reader :last_used_at`), so a connected agent's is now;
   * undefined: agentk never connected.
   */
  lastContactAt?: string;
}

/** Is the agent's agentk away: not connected in the scenario, or disconnected by the knob (id or name)? */
export function isAgentDisconnected(
  agent: ScenarioAgent,
  disconnectedByKnob: readonly string[],
): boolean {
  return (
    !agent.connected ||
    disconnectedByKnob.includes(String(agent.id)) ||
    disconnectedByKnob.includes(agent.name)
  );
}

/**
 * Presence of every agent as time goes on: an agent the knob disconnects
 * keeps the moment it went away as its last contact, and is seen again
 * from the moment the knob lets it reconnect.
 */
export class AgentPresenceTracker {
  /** Agents the knob disconnected at runtime: since when. */
  private readonly awaySince = new Map<number, number>();

  constructor(
    private readonly knob: () => readonly string[],
    private readonly now: () => number = Date.now,
  ) {}

  /** Called whenever the knob changes: records who just went away. */
  update(agents: readonly ScenarioAgent[]): void {
    for (const agent of agents) {
      const away = isAgentDisconnected(agent, this.knob());
      if (!away) this.awaySince.delete(agent.id);
      else if (agent.connected && !this.awaySince.has(agent.id))
        this.awaySince.set(agent.id, this.now());
    }
  }

  of(agent: ScenarioAgent): AgentPresence {
    if (!isAgentDisconnected(agent, this.knob()))
      return {
        connected: true,
        lastContactAt: new Date(this.now()).toISOString(),
      };
    const since = this.awaySince.get(agent.id);
    if (agent.connected && since !== undefined)
      return { connected: false, lastContactAt: new Date(since).toISOString() };
    return { connected: false, lastContactAt: agent.configReportedAt };
  }
}
