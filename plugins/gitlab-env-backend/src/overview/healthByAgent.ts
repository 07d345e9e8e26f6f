import { OverviewHealthLine } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import pLimit from 'p-limit';
import { GitlabEnvironmentsService } from '../facade';
import { readRowHealth } from './entityRows';
import { HealthRead, healthReadOrder } from './healthReadOrder';

/** The agent a read goes through, as the overview knows it from the row. */
function agentOf(read: HealthRead): string {
  const agent = read.environment.agent;
  return `${read.instance ?? ''}|${agent?.id ?? ''}`;
}

/** The reads grouped by agent, each group production first. */
export function readsByAgent(reads: HealthRead[]): HealthRead[][] {
  const groups = new Map<string, HealthRead[]>();
  for (const read of healthReadOrder(reads)) {
    const key = agentOf(read);
    const group = groups.get(key);
    if (group) group.push(read);
    else groups.set(key, [read]);
  }
  return [...groups.values()];
}

/**
 * Reads every pending row's health, each agent on its own: an agent's
 * environments are read ahead together (one list per kind across its
 * cluster), and each row's line is written as its answer settles, from
 * that read (no second locate or read per row). Rows the read-ahead could
 * not take are read on their own, `concurrency` at a time. A slow or
 * absent agent holds only its own rows; the other agents' lines are
 * written meanwhile.
 */
export async function readHealthByAgent(
  service: Pick<
    GitlabEnvironmentsService,
    'readAhead' | 'getEnvironmentResources'
  >,
  reads: HealthRead[],
  write: (line: OverviewHealthLine) => void,
  options: {
    /** Rows of one agent read on their own at once. */
    concurrency: number;
    /** Ends the reads (a deadline's reads answer UPSTREAM_TIMEOUT lines). */
    signal: AbortSignal;
    /** True once nobody reads the lines any more: nothing more is started. */
    stopped: () => boolean;
  },
): Promise<void> {
  await Promise.all(
    readsByAgent(reads).map(async group => {
      if (options.stopped()) return;
      const answers = await service.readAhead(group, {
        signal: options.signal,
      });
      const limit = pLimit(options.concurrency);
      await Promise.all(
        group.map(({ entity, environment }, i) => {
          const answer = answers[i];
          const line = async () => {
            if (options.stopped()) return;
            write(
              await readRowHealth(
                service,
                entity,
                environment,
                options.signal,
                answer,
              ),
            );
          };
          return answer ? line() : limit(line);
        }),
      );
    }),
  );
}
