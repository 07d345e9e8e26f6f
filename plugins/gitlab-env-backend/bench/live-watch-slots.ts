/* eslint-disable no-console */
// Which kinds of the demo's production environments hold the agent's
// watches with the default cap (20): right after the first lists (the
// order kinds were asked in, as before slots followed objects) and once
// empty kinds have given their slots to polled kinds with objects (one
// poll interval later). Counts kinds, no timing. Each environment gets its
// own planner, so the other's watches do not share its cap.
// Run: npm run bench:live-watch-slots -w plugins/gitlab-env-backend
import {
  environmentSlug,
  startGitlabSimulator,
} from '@gitlab-env/gitlab-simulator';
import { mockServices } from '@backstage/backend-test-utils';
import { LiveKindState } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { component } from '../src/__testUtils__/backendOnSimulator';
import { plannerOnSimulator } from '../src/__testUtils__/plannerOnSimulator';

const CAP = 20;
const POLL_SECONDS = 1;

const ENVIRONMENTS = [
  {
    slug: 'acme/shop/storefront',
    name: 'storefront',
    environment: environmentSlug('production/us-region'),
    agent: 'prod-us',
    namespace: 'storefront',
  },
  {
    slug: 'acme/shop/checkout-api',
    name: 'checkout-api',
    environment: 'production',
    agent: 'prod-us',
    namespace: 'checkout',
  },
];

async function main() {
  const simulator = await startGitlabSimulator({ port: 0, tickMs: 0 });
  try {
    for (const e of ENVIRONMENTS) {
      const { store } = simulator.cluster(e.agent);
      // The whole scope of the kind's informer, as the status names it.
      const objectsOf = (kind: LiveKindState) => {
        const [label, namespace = e.namespace] = kind.resource.split(' in ');
        const [group, name] = label.includes('/')
          ? label.split('/')
          : ['', label];
        const resource = store.registry.forKind(group, name);
        return resource ? store.list(resource, namespace).length : 0;
      };
      // A kind the cluster refuses holds no watch, whatever its mode says.
      const count = (all: LiveKindState[], refused: Set<string>) => {
        const kinds = all.filter(k => !refused.has(k.resource));
        const full = kinds.filter(k => objectsOf(k) > 0);
        return {
          watched: kinds.filter(k => k.mode === 'watch').length,
          polled: kinds.filter(k => k.mode === 'poll').length,
          withObjects: full.length,
          withObjectsWatched: full.filter(k => k.mode === 'watch').length,
          polledWithObjects: full
            .filter(k => k.mode === 'poll')
            .map(k => k.resource),
        };
      };
      const { service, planner } = plannerOnSimulator(
        simulator,
        {
          maxWatchesPerAgent: CAP,
          pollIntervalSeconds: POLL_SECONDS,
        },
        mockServices.rootLogger({ level: 'error' }),
      );
      try {
        const target = await service.locateLive(
          component(e.name, { 'gitlab.com/project-slug': e.slug }),
          e.environment,
        );
        const { environment, release } = await planner.follow(target);
        const refused = new Set(
          environment
            .errors()
            .filter(error => error.code === 'KIND_FORBIDDEN')
            .map(error => error.resource!),
        );
        const first = count(environment.status().kinds, refused);
        await new Promise(resolve =>
          setTimeout(resolve, POLL_SECONDS * 1000 * 2 + 500),
        );
        const settled = count(environment.status().kinds, refused);
        release();
        console.log(
          `${e.name} ${e.environment} (cap ${CAP}; refused, so neither: ${
            [...refused].join(', ') || 'none'
          }):`,
        );
        for (const [when, c] of [
          ['first lists', first],
          ['slots settled', settled],
        ] as const) {
          console.log(
            `  ${when}: ${c.watched} watched, ${
              c.polled
            } polled; kinds with objects watched ${c.withObjectsWatched}/${
              c.withObjects
            } (${(c.withObjectsWatched / c.withObjects).toFixed(
              2,
            )}); polled with objects: ${
              c.polledWithObjects.join(', ') || 'none'
            }`,
          );
        }
      } finally {
        await planner.close();
      }
    }
  } finally {
    await simulator.close();
  }
}

main().catch(error => {
  console.error(error);
  process.exitCode = 1;
});
