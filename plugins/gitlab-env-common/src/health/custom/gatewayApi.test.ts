import { computeHealth } from '../computeHealth';
import { condition, manifest } from '../__testUtils__/objects';

const GROUP = 'gateway.networking.k8s.io/v1';

describe('Gateway', () => {
  const gateway = (status?: object) =>
    manifest(
      GROUP,
      'Gateway',
      {
        gatewayClassName: 'istio',
        listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }],
      },
      status,
      { name: 'public' },
    );
  const accepted = condition(
    'Accepted',
    'True',
    'Accepted',
    'Resource accepted',
  );
  const listener = (...conditions: object[]) => ({
    name: 'http',
    attachedRoutes: 1,
    supportedKinds: [{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute' }],
    conditions,
  });

  it('is healthy when accepted and programmed, listeners too', () => {
    expect(
      computeHealth(
        gateway({
          addresses: [{ type: 'IPAddress', value: '203.0.113.7' }],
          conditions: [
            accepted,
            condition(
              'Programmed',
              'True',
              'Programmed',
              'Resource programmed',
            ),
          ],
          listeners: [
            listener(accepted, condition('Programmed', 'True', 'Programmed')),
          ],
        }),
      ),
    ).toEqual({ status: 'Healthy', message: 'Gateway is healthy' });
  });
  it('is degraded by unresolved references before anything else', () => {
    expect(
      computeHealth(
        gateway({
          conditions: [
            condition('Accepted', 'False', 'InvalidParameters'),
            condition(
              'ResolvedRefs',
              'False',
              'InvalidCertificateRef',
              'certificate "shop-tls" not found',
            ),
          ],
        }),
      ),
    ).toEqual({
      status: 'Degraded',
      message: 'certificate "shop-tls" not found',
    });
    expect(
      computeHealth(
        gateway({
          conditions: [condition('Accepted', 'False', 'InvalidParameters')],
        }),
      ),
    ).toEqual({ status: 'Degraded', message: 'Failed condition: Accepted' });
  });
  it('waits to be programmed', () => {
    expect(
      computeHealth(
        gateway({
          conditions: [accepted, condition('Programmed', 'Unknown', 'Pending')],
        }),
      ),
    ).toEqual({
      status: 'Progressing',
      message: 'Gateway is still being programmed',
    });
  });
  it('reports a broken listener', () => {
    expect(
      computeHealth(
        gateway({
          conditions: [accepted],
          listeners: [
            listener(
              condition(
                'ResolvedRefs',
                'False',
                'InvalidRouteKinds',
                'Unsupported route kind TLSRoute',
              ),
            ),
          ],
        }),
      ),
    ).toEqual({
      status: 'Degraded',
      message: 'Listener: Unsupported route kind TLSRoute',
    });
  });
  it('waits for a status', () => {
    expect(computeHealth(gateway())).toEqual({
      status: 'Progressing',
      message: 'Waiting for Gateway status',
    });
  });
});

describe('HTTPRoute and GRPCRoute', () => {
  const route = (kind: string, parents?: object[], generation = 2) =>
    manifest(
      GROUP,
      kind,
      {
        parentRefs: [{ name: 'public' }],
        rules: [{ backendRefs: [{ name: 'web', port: 80 }] }],
      },
      parents ? { parents } : undefined,
      { generation },
    );
  const parent = (...conditions: object[]) => ({
    parentRef: {
      group: 'gateway.networking.k8s.io',
      kind: 'Gateway',
      name: 'public',
    },
    controllerName: 'istio.io/gateway-controller',
    conditions,
  });
  const current = (
    type: string,
    status: 'True' | 'False',
    message?: string,
  ) => ({
    ...condition(type, status, type, message),
    observedGeneration: 2,
  });

  it('is healthy when every parent accepted it', () => {
    expect(
      computeHealth(
        route('HTTPRoute', [
          parent(current('Accepted', 'True'), current('ResolvedRefs', 'True')),
        ]),
      ),
    ).toEqual({ status: 'Healthy', message: 'HTTPRoute is healthy' });
    expect(
      computeHealth(route('GRPCRoute', [parent(current('Accepted', 'True'))])),
    ).toEqual({ status: 'Healthy', message: 'GRPCRoute is healthy' });
  });
  it('names the parent that rejects it', () => {
    expect(
      computeHealth(
        route('HTTPRoute', [
          parent(
            current('Accepted', 'True'),
            current('ResolvedRefs', 'False', 'backend not found'),
          ),
        ]),
      ),
    ).toEqual({
      status: 'Degraded',
      message: 'Parent public: backend not found',
    });
  });
  it('ignores HTTPRoute conditions written for an older generation', () => {
    expect(
      computeHealth(
        route('HTTPRoute', [
          parent({
            ...condition('Accepted', 'False', 'NotAllowedByListeners'),
            observedGeneration: 1,
          }),
        ]),
      ),
    ).toEqual({
      status: 'Progressing',
      message: 'Waiting for HTTPRoute status',
    });
  });
  it('judges an HTTPRoute parent by all its conditions once one is current', () => {
    expect(
      computeHealth(
        route('HTTPRoute', [
          parent(
            current('Accepted', 'True'),
            condition('Programmed', 'False', 'Pending'),
          ),
        ]),
      ),
    ).toEqual({
      status: 'Progressing',
      message: 'Parent public: Route is still being programmed',
    });
  });
  it('waits for a status', () => {
    expect(computeHealth(route('GRPCRoute'))).toEqual({
      status: 'Progressing',
      message: 'Waiting for GRPCRoute status',
    });
  });
});

describe('GatewayClass', () => {
  const gatewayClass = (...conditions: object[]) =>
    manifest(
      GROUP,
      'GatewayClass',
      { controllerName: 'istio.io/gateway-controller' },
      { conditions },
      { name: 'istio', namespace: undefined, generation: 1 },
    );
  it('follows Accepted for the current generation', () => {
    expect(
      computeHealth(
        gatewayClass({
          ...condition(
            'Accepted',
            'True',
            'Accepted',
            'Handled by Istio controller',
          ),
          observedGeneration: 1,
        }),
      ),
    ).toEqual({ status: 'Healthy', message: 'Handled by Istio controller' });
    expect(
      computeHealth(
        gatewayClass(condition('Accepted', 'False', 'InvalidParameters')),
      ),
    ).toEqual({ status: 'Degraded', message: 'GatewayClass is not accepted' });
    expect(
      computeHealth(
        gatewayClass({
          ...condition('Accepted', 'True', 'Accepted'),
          observedGeneration: 0,
        }),
      ),
    ).toEqual({
      status: 'Progressing',
      message: 'Waiting for GatewayClass status',
    });
  });
});
