import { http, HttpResponse } from 'msw';
import { kasOnMsw, MSW_KAS } from '../__testUtils__/kasOnMsw';
import { AccessReviewer, attributesFor } from './accessReview';

const KAS = MSW_KAS;
const { server, agent, kas } = kasOnMsw();
const pod = { apiVersion: 'v1', kind: 'Pod', namespace: 'prod', name: 'web-1' };
const web = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  namespace: 'prod',
  name: 'web',
};

function reviews(answer: (spec: any) => object) {
  const seen: any[] = [];
  server.use(
    http.post(
      `${KAS}/apis/authorization.k8s.io/v1/selfsubjectaccessreviews`,
      async ({ request }) => {
        const body: any = await request.json();
        seen.push(body.spec.resourceAttributes);
        return HttpResponse.json(
          { ...body, status: answer(body.spec) },
          { status: 201 },
        );
      },
    ),
  );
  return seen;
}

describe('AccessReviewer', () => {
  it('asks what kubectl would be checked for: pods/log, the scale subresource, patch by name', () => {
    expect(attributesFor('pod.logs', pod)).toEqual({
      namespace: 'prod',
      group: '',
      resource: 'pods',
      verb: 'get',
      subresource: 'log',
    });
    expect(attributesFor('workload.scale', web)).toEqual({
      namespace: 'prod',
      group: 'apps',
      resource: 'deployments',
      name: 'web',
      verb: 'patch',
      subresource: 'scale',
    });
    expect(
      attributesFor('flux.suspend', {
        apiVersion: 'v1',
        kind: 'Service',
        namespace: 'x',
        name: 'y',
      }),
    ).toBeUndefined();
  });

  it('keeps answers per agent for the TTL and asks once for concurrent questions', async () => {
    let clock = 0;
    const reviewer = new AccessReviewer(30_000, () => clock);
    const seen = reviews(() => ({ allowed: false, reason: 'no RBAC rule' }));
    const attributes = attributesFor('pod.delete', pod)!;
    const [a, b] = await Promise.all([
      reviewer.review(kas, 'host|7', agent, attributes),
      reviewer.review(kas, 'host|7', agent, attributes),
    ]);
    expect(a).toEqual({
      allowed: false,
      reason:
        "The cluster's RBAC does not let agent prod delete pods in prod (no RBAC rule).",
    });
    expect(b).toEqual(a);
    clock = 29_000;
    await reviewer.review(kas, 'host|7', agent, attributes);
    expect(seen).toHaveLength(1);
    await reviewer.review(kas, 'host|8', agent, attributes);
    expect(seen).toHaveLength(2);
    clock = 31_000;
    await reviewer.review(kas, 'host|7', agent, attributes);
    expect(seen).toHaveLength(3);
  });

  it('offers the action, saying so, when the cluster cannot answer; such answers are not kept', async () => {
    const reviewer = new AccessReviewer(30_000);
    server.use(
      http.post(
        `${KAS}/apis/authorization.k8s.io/v1/selfsubjectaccessreviews`,
        () => HttpResponse.json({ kind: 'Status', code: 500 }, { status: 500 }),
      ),
    );
    const decision = await reviewer.review(
      kas,
      'k',
      agent,
      attributesFor('pod.delete', pod)!,
    );
    expect(decision.allowed).toBe(true);
    expect(decision.reason).toMatch(/could not be asked/);
    const seen = reviews(() => ({ allowed: true }));
    expect(
      await reviewer.review(kas, 'k', agent, attributesFor('pod.delete', pod)!),
    ).toEqual({ allowed: true });
    expect(seen).toHaveLength(1);
  });
});
