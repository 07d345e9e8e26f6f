import { mockServices } from '@backstage/backend-test-utils';
import { LivePlanner } from '../planning/LivePlanner';

/**
 * A live planner with settings for unit tests (changes batched at once,
 * short back-off), reading across the cluster from `minNamespaces`
 * namespaces of an agent.
 */
export function testPlanner(minNamespaces = 3): LivePlanner {
  return new LivePlanner(
    {
      maxWatchesPerAgent: 20,
      graceMs: 60_000,
      pollIntervalMs: 60_000,
      watchTimeoutSeconds: 290,
      batchMs: 0,
      backoff: { initialMs: 10, maxMs: 20 },
      heartbeatMs: 15_000,
      maxEnvironmentsPerStream: 50,
    },
    { maxObjects: 1000, maxPagesPerList: 10 },
    { enabled: true, minNamespaces },
    mockServices.logger.mock(),
  );
}
