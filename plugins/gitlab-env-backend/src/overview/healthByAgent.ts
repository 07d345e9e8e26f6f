import { OverviewHealthLine } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import pLimit from 'p-limit';
import { callerLeft } from '../caching/cache';
import { GitlabEnvironmentsService, ReadGathering } from '../facade';
import { whenAborted } from '../transport/deadline';
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

/** How the overview's health lines are read and written. */
export interface HealthReadOptions {
  /** Rows of one agent read on their own at once. */
  concurrency: number;
  /** Ends the reads (a deadline's reads answer UPSTREAM_TIMEOUT lines). */
  signal: AbortSignal;
  /** True once nobody reads the lines any more: nothing more is started. */
  stopped: () => boolean;
}

/**
 * Reads the pending rows' health as the rows are listed, each agent on its
 * own: each entity's environments are read ahead as soon as they are
 * listed, in one gathering (GitlabEnvironmentsService.gatherReads), so an
 * agent's lists across its cluster start with its first rows and cover
 * the later ones (one list per kind, not one per kind and namespace).
 * Each row's line is written as its answer settles, from that read (no
 * second locate or read per row). Rows the read-ahead could not take are
 * read on their own, `concurrency` at a time per agent. A slow or absent
 * agent holds only its own rows; the other agents' lines are written
 * meanwhile.
 */
export class HealthReads {
  private readonly gathering: ReadGathering;
  private readonly ended: Promise<never>;
  private stopWaiting = () => {};
  private readonly limits = new Map<string, pLimit.Limit>();
  private readonly lines: Array<Promise<void>> = [];
  /** Each batch's read-ahead, resolved once its reads are registered. */
  private readonly registering: Array<Promise<unknown>> = [];

  constructor(
    private readonly service: Pick<
      GitlabEnvironmentsService,
      'readAhead' | 'getEnvironmentResources' | 'gatherReads'
    >,
    private readonly write: (line: OverviewHealthLine) => void,
    private readonly options: HealthReadOptions,
  ) {
    this.gathering = service.gatherReads({ signal: options.signal });
    // One wait for the stream's end that every row's read races, rather
    // than a listener on its signal per row (an EventTarget adds each in
    // time linear in those it has).
    this.ended = new Promise<never>((_, reject) => {
      const end = () => reject(callerLeft());
      if (options.signal.aborted) end();
      else this.stopWaiting = whenAborted(options.signal, end);
    });
    this.ended.catch(() => undefined);
  }

  /** Starts reading these rows (an entity's, as soon as they are listed). */
  add(reads: HealthRead[]) {
    for (const group of readsByAgent(reads)) this.lines.push(this.read(group));
  }

  /** Every row is added: resolves once every line is written. */
  async finish(): Promise<void> {
    // Closed once the last batch's namespaces are registered with the
    // agent's informers, so they are covered by their lists.
    await Promise.allSettled(this.registering);
    this.gathering.close();
    await Promise.all(this.lines);
    this.stopWaiting();
  }

  private async read(group: HealthRead[]) {
    const { options, service } = this;
    if (options.stopped()) return;
    const reading = service.readAhead(group, {
      signal: options.signal,
      gathering: this.gathering,
    });
    this.registering.push(reading);
    const answers = await reading;
    const key = agentOf(group[0]);
    let limit = this.limits.get(key);
    if (!limit) this.limits.set(key, (limit = pLimit(options.concurrency)));
    await Promise.all(
      group.map(({ entity, environment }, i) => {
        const answer = answers[i];
        const line = async () => {
          if (options.stopped()) return;
          this.write(
            await readRowHealth(
              service,
              entity,
              environment,
              options.signal,
              answer,
              this.ended,
            ),
          );
        };
        return answer ? line() : limit!(line);
      }),
    );
  }
}
