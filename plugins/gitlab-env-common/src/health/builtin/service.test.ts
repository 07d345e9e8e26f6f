import { computeHealth } from '../computeHealth';
import { manifest } from '../__testUtils__/objects';

const address = { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } };

describe('Service', () => {
  const service = (type: string, status?: object) =>
    manifest(
      'v1',
      'Service',
      {
        type,
        selector: { app: 'web' },
        ports: [{ port: 80, targetPort: 8080 }],
      },
      status,
    );
  it('is healthy unless it waits for a load balancer', () => {
    expect(computeHealth(service('ClusterIP', { loadBalancer: {} }))).toEqual({
      status: 'Healthy',
    });
    expect(computeHealth(service('NodePort'))).toEqual({ status: 'Healthy' });
  });
  it('waits for a LoadBalancer address', () => {
    expect(
      computeHealth(service('LoadBalancer', { loadBalancer: {} })),
    ).toEqual({ status: 'Progressing' });
    expect(computeHealth(service('LoadBalancer', address))).toEqual({
      status: 'Healthy',
    });
  });
});

describe('Ingress', () => {
  const ingress = (apiVersion: string, status?: object) =>
    manifest(
      apiVersion,
      'Ingress',
      { ingressClassName: 'nginx', rules: [{ host: 'shop.example.com' }] },
      status,
    );
  it('waits for the controller to publish an address', () => {
    expect(
      computeHealth(ingress('networking.k8s.io/v1', { loadBalancer: {} })),
    ).toEqual({ status: 'Progressing' });
    expect(computeHealth(ingress('networking.k8s.io/v1', address))).toEqual({
      status: 'Healthy',
    });
    expect(computeHealth(ingress('extensions/v1beta1', address))).toEqual({
      status: 'Healthy',
    });
  });
});
