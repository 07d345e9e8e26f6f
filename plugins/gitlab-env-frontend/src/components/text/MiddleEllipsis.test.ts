import { splitForEllipsis } from './MiddleEllipsis';

describe('splitForEllipsis', () => {
  it.each([
    // A pod: its ReplicaSet's hash and its own id.
    ['storefront-web-5k2kstkls-b2cr4', 'storefront-web', '-5k2kstkls-b2cr4'],
    // A ReplicaSet: its pod-template hash.
    ['storefront-web-5k2kstkls', 'storefront-web', '-5k2kstkls'],
    // A short last word takes the one before it.
    ['storefront-staging-tls', 'storefront', '-staging-tls'],
    ['flux-system-storefront-staging', 'flux-system-storefront', '-staging'],
    ['api.v1.example', 'api.v1', '.example'],
    // No separator: the last characters.
    ['averyveryverylongname', 'averyveryverylo', 'ngname'],
    ['short', 'short', ''],
  ])('keeps the end of %s', (name, head, tail) => {
    const [h, t] = splitForEllipsis(name);
    expect(h + t).toBe(name);
    expect([h, t]).toEqual([head, tail]);
  });
});
