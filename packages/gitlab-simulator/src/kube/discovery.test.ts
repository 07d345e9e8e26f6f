import { aggregatedDiscoveryMediaType } from './discovery';

const V2 =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const V2BETA1 =
  'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

describe('aggregatedDiscoveryMediaType', () => {
  it('serves the first aggregated version the client accepts and the cluster serves', () => {
    expect(
      aggregatedDiscoveryMediaType(
        `${V2},${V2BETA1},application/json`,
        'v1.31.4',
      ),
    ).toBe(V2);
    expect(
      aggregatedDiscoveryMediaType(
        `${V2},${V2BETA1},application/json`,
        'v1.27.1',
      ),
    ).toBe(V2BETA1);
    expect(aggregatedDiscoveryMediaType(V2BETA1, 'v1.33.0')).toBeUndefined();
  });

  it('answers plain discovery to old clusters and plain clients', () => {
    expect(aggregatedDiscoveryMediaType(V2, 'v1.25.9')).toBeUndefined();
    expect(
      aggregatedDiscoveryMediaType('application/json', 'v1.31.4'),
    ).toBeUndefined();
    expect(aggregatedDiscoveryMediaType(undefined, 'v1.31.4')).toBeUndefined();
  });
});
