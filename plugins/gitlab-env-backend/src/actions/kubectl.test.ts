import { execFile, spawnSync } from 'child_process';
import { mockServices } from '@backstage/backend-test-utils';
import {
  ActionTarget,
  EntityEnvironmentsResponse,
  EnvironmentAction,
  kubectlCommandFor,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  DEMO_TOKEN,
  RunningSimulator,
  startGitlabSimulator,
  writeKubeconfig,
} from '@gitlab-env/gitlab-simulator';
import request from 'supertest';
import {
  ownedComponent,
  storefrontComponent,
  startBackendOnSimulator,
  TEST_KAS_TUNNELS,
} from '../__testUtils__/backendOnSimulator';
import {
  stagingRelease,
  stagingReleaseChart,
  STOREFRONT_ENTITY_PATH,
  storefrontWeb,
} from '../__testUtils__/storefrontTargets';

/**
 * Every command kubectlCommandFor produces, run with the real kubectl
 * against one simulator over HTTPS (kubectl sends no bearer token over
 * plain HTTP), and the backend's action against a second simulator holding
 * the same scenario: the acted-on objects must end the same.
 */
const KUBECTL = spawnSync('sh', ['-c', 'command -v kubectl'])
  .stdout?.toString()
  .trim();
const describeWithKubectl = KUBECTL ? describe : describe.skip;
if (!KUBECTL) {
  // eslint-disable-next-line no-console
  console.warn(
    'kubectl is not installed: skipping the kubectl tests (run scripts/ensure-kubectl.sh to install it).',
  );
}

jest.setTimeout(60_000);

const ENTITY = STOREFRONT_ENTITY_PATH;
const SEARCH = '/api/gitlab-env/entity/default/component/search-indexer';
const searchIndexer: ActionTarget = {
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  namespace: 'search',
  name: 'search-indexer',
};
const KNOBS = { hpaSyncMs: 600_000, podTerminationMs: 0 };
const web = storefrontWeb;
const release = stagingRelease;
const chart = stagingReleaseChart();

/** What both routes must leave the same: spec, labels, annotations, with the times they stamp masked. */
function comparable(object: any) {
  if (!object) return 'absent';
  const mask = (annotations: Record<string, string> = {}) =>
    Object.fromEntries(
      Object.entries(annotations).map(([k, v]) => [
        k,
        /restartedAt|requestedAt/.test(k) ? '<time>' : v,
      ]),
    );
  const spec = structuredClone(object.spec ?? {});
  if (spec.template?.metadata?.annotations)
    spec.template.metadata.annotations = mask(
      spec.template.metadata.annotations,
    );
  return {
    spec,
    labels: object.metadata.labels,
    annotations: mask(object.metadata.annotations),
    generation: object.metadata.generation,
  };
}

describeWithKubectl(
  'kubectl commands the UI shows do what the backend does',
  () => {
    let viaKubectl: RunningSimulator;
    let viaBackend: RunningSimulator;
    let server: any;
    let kubeconfig: string;
    const slugs: Record<string, string> = {};

    beforeEach(async () => {
      [viaKubectl, viaBackend] = await Promise.all([
        startGitlabSimulator({
          port: 0,
          tls: true,
          tickMs: 0,
          clusterKnobs: KNOBS,
          kasTunnels: TEST_KAS_TUNNELS,
        }),
        startGitlabSimulator({
          port: 0,
          tickMs: 0,
          clusterKnobs: KNOBS,
          kasTunnels: TEST_KAS_TUNNELS,
        }),
      ]);
      for (const sim of [viaKubectl, viaBackend])
        sim.cluster('nonprod').store.upsert(structuredClone(chart) as any);
      const backend = await startBackendOnSimulator(viaBackend, {
        entities: [
          storefrontComponent(),
          ownedComponent('search-indexer', 'acme/platform/search-indexer'),
        ],
        gitlabEnv: { requestTimeoutMs: 10_000 },
        features: [mockServices.auditor.factory()],
      });
      server = backend.server;
      const list = (
        await request(server)
          .get(`${ENTITY}/environments?withHealth=false`)
          .expect(200)
      ).body as EntityEnvironmentsResponse;
      for (const e of list.environments) slugs[e.name] = e.slug;
      const search = (
        await request(server)
          .get(`${SEARCH}/environments?withHealth=false`)
          .expect(200)
      ).body as EntityEnvironmentsResponse;
      for (const e of search.environments) slugs[`search/${e.name}`] = e.slug;
    });

    afterEach(async () => {
      await Promise.all([viaKubectl?.close(), viaBackend?.close()]);
    });

    function kubeconfigFor(agentId: number) {
      kubeconfig = writeKubeconfig({
        server: viaKubectl.kasProxyUrl,
        token: `pat:${agentId}:${DEMO_TOKEN}`,
        certificateAuthority: viaKubectl.certificate,
        namespace: 'default',
      });
      return kubeconfig;
    }

    function sh(command: string, agentId: number) {
      return new Promise<{ code: number; stderr: string }>(resolve => {
        execFile(
          'sh',
          ['-c', command],
          {
            timeout: 45_000,
            env: { ...process.env, KUBECONFIG: kubeconfigFor(agentId) },
          },
          (error, _stdout, stderr) =>
            resolve({
              code: error ? Number((error as any).code ?? 1) : 0,
              stderr,
            }),
        );
      });
    }

    const objectIn = (
      sim: RunningSimulator,
      agent: string,
      target: ActionTarget,
    ) =>
      (sim.cluster(agent).store.all() as any[]).find(
        o =>
          o.kind === target.kind &&
          o.metadata.namespace === target.namespace &&
          o.metadata.name === target.name,
      );

    const firstPod = (): ActionTarget => {
      const pod = (viaBackend.cluster('prod-us').store.all() as any[]).find(
        o => o.kind === 'Pod' && o.metadata.namespace === 'storefront',
      );
      return {
        apiVersion: 'v1',
        kind: 'Pod',
        namespace: 'storefront',
        name: pod.metadata.name,
      };
    };

    const CASES: Array<{
      action: EnvironmentAction;
      target: () => ActionTarget;
      agent: string;
      agentId: number;
      environment: string;
      replicas?: number;
      withSource?: boolean;
      toRevision?: number;
      /** The entity whose environment it is (default storefront). */
      entity?: string;
      /** Objects beside the target the action changes. */
      also?: ActionTarget[];
    }> = [
      {
        action: 'pod.delete',
        target: firstPod,
        agent: 'prod-us',
        agentId: 1,
        environment: 'production/us-region',
      },
      {
        action: 'workload.restart',
        target: () => web,
        agent: 'prod-us',
        agentId: 1,
        environment: 'production/us-region',
      },
      {
        action: 'workload.scale',
        target: () => web,
        agent: 'prod-us',
        agentId: 1,
        environment: 'production/us-region',
        replicas: 5,
      },
      {
        action: 'flux.reconcile',
        target: () => release,
        agent: 'nonprod',
        agentId: 3,
        environment: 'staging',
        withSource: true,
        also: [
          {
            apiVersion: chart.apiVersion,
            kind: chart.kind,
            namespace: chart.metadata.namespace,
            name: chart.metadata.name,
          },
        ],
      },
      {
        action: 'flux.suspend',
        target: () => release,
        agent: 'nonprod',
        agentId: 3,
        environment: 'staging',
      },
      {
        // The ReplicaSet before the current one (revision 2; 3 runs).
        action: 'workload.rollback',
        target: () => web,
        agent: 'prod-us',
        agentId: 1,
        environment: 'production/us-region',
        toRevision: 2,
      },
      {
        action: 'workload.rollback',
        target: () => searchIndexer,
        agent: 'prod-us',
        agentId: 1,
        entity: SEARCH,
        environment: 'search/production',
        toRevision: 1,
      },
    ];

    it.each(CASES)('$action in $environment', async c => {
      const target = c.target();
      const body = await request(server)
        .post(
          `${c.entity ?? ENTITY}/environments/${slugs[c.environment]}/actions`,
        )
        .send({
          action: c.action,
          target,
          replicas: c.replicas,
          withSource: c.withSource,
          toRevision: c.toRevision,
        })
        .expect(200);
      const command = kubectlCommandFor(c.action, target, {
        context: 'simulator',
        replicas: c.replicas,
        source: c.also?.[0],
        toRevision: c.toRevision,
      });
      // The page shows the backend's command; it must be the one run here.
      expect(body.body.kubectl).toBe(
        command.replaceAll(' --context=simulator', ''),
      );
      const before = comparable(objectIn(viaKubectl, c.agent, target));
      const ran = await sh(command, c.agentId);
      expect(ran).toEqual({ code: 0, stderr: '' });
      for (const object of [target, ...(c.also ?? [])]) {
        const afterKubectl = comparable(objectIn(viaKubectl, c.agent, object));
        expect(afterKubectl).toEqual(
          comparable(objectIn(viaBackend, c.agent, object)),
        );
      }
      // Both changed the target: not two untouched copies compared.
      expect(comparable(objectIn(viaKubectl, c.agent, target))).not.toEqual(
        before,
      );
    });

    it('flux.resume after a suspend', async () => {
      const slug = slugs.staging;
      for (const action of ['flux.suspend', 'flux.resume'] as const) {
        await request(server)
          .post(`${ENTITY}/environments/${slug}/actions`)
          .send({ action, target: release })
          .expect(200);
        expect(
          await sh(
            kubectlCommandFor(action, release, { context: 'simulator' }),
            3,
          ),
        ).toEqual({ code: 0, stderr: '' });
      }
      const afterKubectl = objectIn(viaKubectl, 'nonprod', release);
      expect(afterKubectl.spec.suspend).toBe(false);
      expect(comparable(afterKubectl)).toEqual(
        comparable(objectIn(viaBackend, 'nonprod', release)),
      );
    });
  },
);
