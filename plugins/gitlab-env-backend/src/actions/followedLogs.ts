import { BackstageCredentials } from '@backstage/backend-plugin-api';
import { failure } from '../errors';

/** Who a followed log counts against: the user, else the service or caller. */
function callerOf(credentials: BackstageCredentials): string {
  const principal = credentials.principal as {
    type?: string;
    userEntityRef?: string;
    subject?: string;
  };
  return (
    principal.userEntityRef ??
    principal.subject ??
    principal.type ??
    'anonymous'
  );
}

/**
 * Followed logs per user, process-wide: each holds an agentk tunnel for as
 * long as it is open, so one person cannot hold an agent's tunnels by
 * following logs in many tabs (gitlabEnv.actions.logs.maxFollowedPerUser).
 * The agent's own budget is the transport's (holdStream).
 */
export class FollowedLogs {
  private readonly byCaller = new Map<string, number>();

  constructor(private readonly maxPerUser: number) {}

  /** Counts one more followed log of the caller; the returned function ends it. */
  hold(credentials: BackstageCredentials): () => void {
    const caller = callerOf(credentials);
    const held = this.byCaller.get(caller) ?? 0;
    if (held >= this.maxPerUser)
      throw failure(
        'TOO_MANY_STREAMS',
        `You follow ${held} logs already, the most one person may follow at once (gitlabEnv.actions.logs.maxFollowedPerUser).`,
        {
          hint: 'Close a followed log (another tab, another pod) and try again, or read the log without following it.',
        },
      );
    this.byCaller.set(caller, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.byCaller.get(caller) ?? 1) - 1;
      if (left > 0) this.byCaller.set(caller, left);
      else this.byCaller.delete(caller);
    };
  }
}
