/* eslint-disable no-console */
import { parseArgs } from 'util';
import { FaultKnobs } from './faults';
import { loadDefaultScenario, loadScenario } from './scenario/load';
import { generateScenario } from './scenario/generate';
import { startGitlabSimulator } from './server';

const USAGE = `Usage: gitlab-simulator [options]

  --port <n>             listen port (default 7008; 0 = random)
  --host <addr>          listen address (default 127.0.0.1)
  --scenario <dir>       scenario directory (default examples/scenarios/default)
  --generate <PxExO>     generated scenario: projects x environments x objects, e.g. 300x4x20
  --latency <ms>         latency added to every request
  --error-rate <0..1>    chance a request fails
  --error-kind <kind>    5xx | reset | slow-body | malformed-json | invalid-utf8 (default 5xx)
  --data-faults <list>   comma-separated: looping-continue, looping-cursor, deep=<levels>,
                         oversized=<items>, secrets-in-list, duplicate-uids, malformed-metadata
  --forbid <list>        comma-separated resources RBAC forbids, e.g. secrets,apps/deployments
  --namespaced-rbac      RBAC per namespace only: lists across all namespaces answer 403
  --disconnect <list>    comma-separated agent ids whose agentk is not connected
  --no-kas               answer as an instance without KAS
  --tls                  serve HTTPS with a self-signed certificate made at start (its PEM is printed)
  --pod-start <ms>       pods stay Pending/ContainerCreating this long before Running (default 0)
  --pod-termination <ms> grace period a deleted pod shows Terminating (default 0)
  --bookmark-interval <ms>  interval between watch BOOKMARK events (default 60000)
  --watch-history <n>    changes kept for watches from a resourceVersion; older ones get 410 Gone
  --churn <n>            make n pod changes per second in every cluster
  --no-metrics           no cluster runs metrics-server (no metrics.k8s.io)
  --deploy-job <ms>      how long a retried deploy job stays pending, then running (default 1500)
  --admin                serve the knobs and drivers over HTTP at /-/simulator/ (see README)
`;

function dataFaults(names: string[]): Partial<FaultKnobs> {
  const knobs: Partial<FaultKnobs> = {};
  for (const entry of names) {
    const [name, value] = entry.split('=');
    if (name === 'looping-continue') knobs.loopingContinue = true;
    else if (name === 'looping-cursor') knobs.loopingCursor = true;
    else if (name === 'deep') knobs.deepObjectDepth = Number(value ?? 10_000);
    else if (name === 'oversized')
      knobs.oversizedListItems = Number(value ?? 50_000);
    else if (name === 'secrets-in-list') knobs.secretsInList = true;
    else if (name === 'duplicate-uids') knobs.duplicateUids = true;
    else if (name === 'malformed-metadata') knobs.malformedMetadata = true;
    else throw new Error(`Unknown data fault '${entry}'`);
  }
  return knobs;
}

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '7008' },
      host: { type: 'string', default: '127.0.0.1' },
      scenario: { type: 'string' },
      generate: { type: 'string' },
      latency: { type: 'string' },
      'error-rate': { type: 'string' },
      'error-kind': { type: 'string' },
      'data-faults': { type: 'string' },
      forbid: { type: 'string' },
      disconnect: { type: 'string' },
      'namespaced-rbac': { type: 'boolean' },
      'no-kas': { type: 'boolean' },
      tls: { type: 'boolean' },
      'pod-start': { type: 'string' },
      'pod-termination': { type: 'string' },
      'bookmark-interval': { type: 'string' },
      'watch-history': { type: 'string' },
      churn: { type: 'string' },
      'no-metrics': { type: 'boolean' },
      'deploy-job': { type: 'string' },
      admin: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const list = (value?: string) =>
    value
      ? value
          .split(',')
          .map(s => s.trim())
          .filter(Boolean)
      : undefined;
  const faults: Partial<FaultKnobs> = {
    ...(values.latency ? { latencyMs: Number(values.latency) } : {}),
    ...(values['error-rate']
      ? { errorRate: Number(values['error-rate']) }
      : {}),
    ...(values['error-kind']
      ? { errorKind: values['error-kind'] as FaultKnobs['errorKind'] }
      : {}),
    ...(values.forbid ? { forbiddenKinds: list(values.forbid) } : {}),
    ...(values.disconnect
      ? { disconnectedAgents: list(values.disconnect) }
      : {}),
    ...dataFaults(list(values['data-faults']) ?? []),
    ...(values['no-kas'] ? { kasEnabled: false } : {}),
    ...(values['namespaced-rbac'] ? { namespacedRbacOnly: true } : {}),
  };
  let scenario;
  if (values.generate) {
    const [projects, environmentsPerProject, objectsPerEnvironment] =
      values.generate.split('x').map(Number);
    scenario = generateScenario({
      projects,
      environmentsPerProject,
      objectsPerEnvironment,
    });
  } else {
    scenario = values.scenario
      ? loadScenario(values.scenario)
      : loadDefaultScenario();
  }
  const simulator = await startGitlabSimulator({
    port: Number(values.port),
    host: values.host,
    scenario,
    faults,
    tls: values.tls,
    adminApi: values.admin,
    ...(values['deploy-job']
      ? { deployJobPhaseMs: Number(values['deploy-job']) }
      : {}),
    clusterKnobs: {
      ...(values['pod-start']
        ? { podStartMs: Number(values['pod-start']) }
        : {}),
      ...(values['pod-termination']
        ? { podTerminationMs: Number(values['pod-termination']) }
        : {}),
      ...(values['bookmark-interval']
        ? { bookmarkIntervalMs: Number(values['bookmark-interval']) }
        : {}),
      ...(values['watch-history']
        ? { watchHistoryLimit: Number(values['watch-history']) }
        : {}),
      ...(values['no-metrics'] ? { metricsApi: false } : {}),
    },
    logger: { info: console.log, warn: console.warn },
  });
  if (values.churn) {
    for (const agent of scenario.agents) {
      if (scenario.clusters.some(c => c.agent === agent.name))
        simulator.cluster(agent.name).startChurn(Number(values.churn));
    }
  }
  if (simulator.certificate) {
    console.log(
      `\nCertificate (trust it as the CA):\n${simulator.certificate}`,
    );
  }
  const objects = scenario.clusters.reduce((n, c) => n + c.objects.length, 0);
  console.log(`
Scenario:   ${scenario.name} (${scenario.projects.length} projects, ${
    scenario.agents.length
  } agents, ${objects} Kubernetes objects)
GitLab:     ${simulator.url}   (instance host ${scenario.instance.host})
GraphQL:    ${simulator.graphqlUrl}
REST:       ${simulator.apiUrl}
KAS proxy:  ${simulator.kasProxyUrl}

Tokens:
${scenario.tokens
  .map(
    t =>
      `  ${t.token.padEnd(28)} ${t.username.padEnd(14)} ${t.scopes.join(',')}${
        t.revoked ? ' (revoked)' : ''
      }${t.expiresAt ? ` (expires ${t.expiresAt})` : ''}`,
  )
  .join('\n')}

Agents (use Authorization: Bearer pat:<agent id>:<token> on the KAS proxy):
${scenario.agents
  .map(
    a =>
      `  ${String(a.id).padEnd(3)} ${a.name.padEnd(12)} ${
        a.connected ? 'connected' : 'NOT connected'
      }`,
  )
  .join('\n')}

Try:
  curl -H 'PRIVATE-TOKEN: ${scenario.tokens[0]?.token}' ${
    simulator.apiUrl
  }/projects/acme%2Fshop%2Fstorefront/environments
  curl -H 'Authorization: Bearer pat:1:${scenario.tokens[0]?.token}' ${
    simulator.kasProxyUrl
  }/api/v1/namespaces/storefront/pods
`);
  const stop = () => {
    simulator.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
