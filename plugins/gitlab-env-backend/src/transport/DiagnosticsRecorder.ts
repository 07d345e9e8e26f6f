import {
  AgentDiagnostics,
  GitlabAgentRef,
  GitlabEnvError,
  RecentFailure,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';

/** Failures kept per instance for the diagnostics view. */
const MAX_FAILURES = 20;
/** Agents kept per instance, most recently seen first. */
const MAX_AGENTS = 200;

interface InstanceLog {
  agents: Map<string, AgentDiagnostics>;
  /** The agents' last entry (the newest), when there is one. */
  newest?: AgentDiagnostics;
  failures: RecentFailure[];
}

/**
 * Remembers, per instance, the agents reads went through and the latest
 * failures, bounded, for the admins' diagnostics view. Holds what the API
 * already reports to users: messages, codes, names; never tokens.
 */
export class DiagnosticsRecorder {
  private readonly logs = new Map<string, InstanceLog>();

  /** The last time written, and the millisecond it is of. */
  private lastTime = { at: NaN, iso: '' };

  constructor(private readonly now: () => number = Date.now) {}

  /** Now as an ISO string, made once per millisecond. */
  private isoNow(): string {
    const at = this.now();
    if (at !== this.lastTime.at)
      this.lastTime = { at, iso: new Date(at).toISOString() };
    return this.lastTime.iso;
  }

  private log(host: string): InstanceLog {
    let log = this.logs.get(host);
    if (!log) {
      log = { agents: new Map(), failures: [] };
      this.logs.set(host, log);
    }
    return log;
  }

  agentResult(host: string, agent: GitlabAgentRef, lastResult: string) {
    const log = this.log(host);
    const lastSeenAt = this.isoNow();
    // Every read of an agent's environments records it (an overview, a
    // thousand in a burst): the same result in the same millisecond for
    // the newest entry would write what is there already.
    const newest = log.newest;
    if (
      newest &&
      newest.id === agent.id &&
      newest.name === agent.name &&
      newest.configProject === agent.configProject &&
      newest.lastResult === lastResult &&
      newest.lastSeenAt === lastSeenAt
    )
      return;
    const { agents } = log;
    agents.delete(agent.id);
    log.newest = {
      id: agent.id,
      name: agent.name,
      configProject: agent.configProject,
      lastResult,
      lastSeenAt,
    };
    agents.set(agent.id, log.newest);
    if (agents.size > MAX_AGENTS) {
      agents.delete(agents.keys().next().value!);
    }
  }

  /** Records a failure; the same failure again only moves up with its new time. */
  failure(host: string, error: GitlabEnvError, context?: string) {
    const { failures } = this.log(host);
    const same = failures.findIndex(
      f =>
        f.context === context &&
        f.error.code === error.code &&
        f.error.message === error.message,
    );
    if (same >= 0) failures.splice(same, 1);
    failures.unshift({
      at: this.isoNow(),
      error,
      context,
    });
    failures.length = Math.min(failures.length, MAX_FAILURES);
  }

  agents(host: string): AgentDiagnostics[] {
    return [...(this.logs.get(host)?.agents.values() ?? [])].reverse();
  }

  failures(host: string): RecentFailure[] {
    return [...(this.logs.get(host)?.failures ?? [])];
  }
}
