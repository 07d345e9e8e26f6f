/* eslint-disable no-console */
// What an AI assistant is told by each gitlab-env action about a
// 1,000-object environment (goal: under 8 KB, the rest on request),
// called as an MCP client calls them: the plugin, Backstage's actions
// registry and @backstage/plugin-mcp-actions-backend in a test backend on
// the simulator, the MCP SDK's client over HTTP. Baseline, measured in the
// same run: the environment's resources read as the tab gets it. Sizes
// only; no timing. Run: npm run bench:assistant-actions -w plugins/gitlab-env-backend
import {
  actionsRegistryServiceFactory,
  actionsServiceFactory,
} from '@backstage/backend-defaults/alpha';
import { mockCredentials } from '@backstage/backend-test-utils';
import mcpPlugin from '@backstage/plugin-mcp-actions-backend';
import {
  environmentSlug,
  generateScenario,
  scenarioCatalogEntities,
} from '@gitlab-env/gitlab-simulator';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { backendOnScenario } from './backendOnScenario';

const OBJECTS = Number(process.env.ASSISTANT_OBJECTS ?? 1000);
const GOAL_BYTES = 8 * 1024;
const USER = mockCredentials.user.header('user:default/bench');

const bytes = (text: string) => Buffer.byteLength(text);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

async function main() {
  const scenario = generateScenario({
    projects: 1,
    environmentsPerProject: 2,
    objectsPerEnvironment: OBJECTS,
    seed: 3,
  });
  const project = scenario.projects[0];
  const {
    entity,
    url: base,
    close,
  } = await backendOnScenario(scenario, {
    gitlabEnv: {
      limits: { maxObjectsPerEnvironment: OBJECTS * 3 },
      // The entity's claim on its project, vouched for: its logs may be read.
      ownership: {
        claims: [
          {
            entity: `component:default/${
              scenarioCatalogEntities(scenario)[0].metadata.name
            }`,
            project: project.fullPath,
          },
        ],
      },
    },
    config: { backend: { actions: { pluginSources: ['gitlab-env'] } } },
    features: [actionsRegistryServiceFactory, actionsServiceFactory, mcpPlugin],
  });
  const entityRef = `component:default/${entity.metadata.name}`;
  const environment = environmentSlug(
    scenario.projects[0].environments[0].name,
  );
  const client = new Client({ name: 'bench', version: '1.0.0' });
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/api/mcp-actions/v1`), {
        requestInit: { headers: { Authorization: USER } },
      }),
    );
    const read = await fetch(
      `${base}/api/gitlab-env/entity/default/component/${entity.metadata.name}/environments/${environment}/resources`,
      { headers: { Authorization: USER } },
    );
    if (!read.ok) throw new Error(`The read answered ${read.status}`);
    const readText = await read.text();
    const objects = (JSON.parse(readText).resources as unknown[]).length;

    const call = async (name: string, args: Record<string, unknown>) => {
      const result = (await client.callTool({
        name: `gitlab-env.${name}`,
        arguments: { entityRef, ...args },
      })) as any;
      if (result.isError) throw new Error(`${name}: ${result.content[0].text}`);
      // What the model reads (the text) and what the client receives (text and structured).
      return {
        text: result.content[0].text as string,
        wire: JSON.stringify(result),
        output: result.structuredContent,
      };
    };
    const unhealthy = await call('get-unhealthy-resources', { environment });
    const cause = unhealthy.output.unhealthy.find((u: any) =>
      u.likelyCause?.resource.startsWith('Pod/'),
    );
    if (!cause) throw new Error('The scenario has no crash-looping pod.');
    const rows: Array<[string, { text: string; wire: string }]> = [
      ['list-environments', await call('list-environments', {})],
      ['get-unhealthy-resources', unhealthy],
      [
        `describe-resource ${unhealthy.output.unhealthy[0].resource}`,
        await call('describe-resource', {
          environment,
          resource: unhealthy.output.unhealthy[0].resource,
        }),
      ],
      [
        'get-pod-logs (the likely cause)',
        await call('get-pod-logs', {
          environment,
          pod: cause.likelyCause.resource.slice('Pod/'.length),
        }),
      ],
      // The timeline the reads above recorded (rollouts, health, Events) and GitLab's deployments.
      ['get-recent-changes', await call('get-recent-changes', { environment })],
      [
        'get-recent-changes, deployments only',
        await call('get-recent-changes', {
          environment,
          kinds: ['deployment'],
        }),
      ],
    ];
    if (process.env.ASSISTANT_SHOW)
      for (const [name, { text }] of rows) console.log(name, text);
    const full = bytes(readText);
    console.log(
      `gitlab-env actions over MCP on a ${objects}-object environment (${unhealthy.output.unhealthy.length} unhealthy listed, ${unhealthy.output.more} more counted)`,
    );
    console.log(`baseline: the tab's resources read ${kb(full)}`);
    for (const [name, { text, wire }] of rows)
      console.log(
        `${name.padEnd(44)} answer ${kb(bytes(text)).padStart(8)} (${(
          bytes(text) / full
        ).toFixed(4)}x of the read, ${
          bytes(text) < GOAL_BYTES ? 'under' : 'OVER'
        } the 8 KB goal); MCP result ${kb(bytes(wire))}`,
      );
  } finally {
    await client.close();
    await close();
  }
}

main().catch(error => {
  console.error(error);
  process.exitCode = 1;
});
