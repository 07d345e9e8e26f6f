import { loadDefaultScenario } from '../scenario/load';
import { Scenario } from '../scenario/types';
import { graphql, useSimulator } from '../testing/harness';

function atVersion(version: string): Scenario {
  const scenario = loadDefaultScenario();
  return { ...scenario, instance: { ...scenario.instance, version } };
}

const ENVIRONMENT_FIELDS = `query {
  project(fullPath: "acme/shop/storefront") {
    environments(first: 1) { nodes { name kubernetesNamespace fluxResourcePath clusterAgent { id name } } }
  }
}`;

describe('GraphQL schema by GitLab version', () => {
  const v16_3 = useSimulator({ scenario: atVersion('16.3.2') });
  const v17_5 = useSimulator({ scenario: atVersion('17.5.3-ee') });
  const v17_6 = useSimulator({ scenario: atVersion('17.6.0') });

  it('serves Kas.externalK8sProxyUrl from 17.6 only (doc/api/metadata.md, MR !172373)', async () => {
    const query = 'query { metadata { kas { externalK8sProxyUrl } } }';
    const before = await graphql(v17_5(), query);
    expect(before.body.data).toBeUndefined();
    expect(before.body.errors[0].message).toBe(
      'Cannot query field "externalK8sProxyUrl" on type "Kas". Did you mean "externalUrl"?',
    );
    const since = await graphql(v17_6(), query);
    expect(since.body.data.metadata.kas.externalK8sProxyUrl).toBe(
      v17_6().kasProxyUrl,
    );
    const rest = await fetch(`${v17_5().apiUrl}/metadata`, {
      headers: { authorization: 'Bearer glpat-demo-backstage-bot' },
    });
    const body = await rest.json();
    expect(body.kas).not.toHaveProperty('externalK8sProxyUrl');
    expect(body.kas.externalUrl).toMatch(/^ws:\/\/.*\/-\/kubernetes-agent\/$/);
  });

  it('serves fluxResourcePath from 16.4 (doc/ci/environments/kubernetes_dashboard.md)', async () => {
    const before = await graphql(v16_3(), ENVIRONMENT_FIELDS);
    expect(before.body.errors[0].message).toMatch(
      /Cannot query field "fluxResourcePath" on type "Environment"/,
    );
    const since = await graphql(v17_5(), ENVIRONMENT_FIELDS);
    expect(since.body.errors).toBeUndefined();
  });

  it('has no count on EnvironmentConnection and types Deployment.iid as String (GraphQL reference)', async () => {
    const count = await graphql(
      v17_6(),
      'query { project(fullPath: "acme/shop/storefront") { environments { count } } }',
    );
    expect(count.body.errors[0].message).toMatch(
      /Cannot query field "count" on type "EnvironmentConnection"/,
    );
    const iid = await graphql(
      v17_6(),
      'query { __type(name: "Deployment") { fields { name type { kind name ofType { name } } } } }',
    );
    const fields = Object.fromEntries(
      iid.body.data.__type.fields.map((f: any) => [f.name, f.type]),
    );
    expect(fields.iid).toMatchObject({ kind: 'SCALAR', name: 'String' });
    expect(fields.id).toMatchObject({ kind: 'SCALAR', name: 'ID' });
  });
});
