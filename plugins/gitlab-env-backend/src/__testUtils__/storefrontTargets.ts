import { ActionTarget } from '@gitlab-env/backstage-plugin-gitlab-env-common';

/**
 * Objects of the simulator's default scenario the action tests act on:
 * acme/shop/storefront's Deployment (production/us-region, agent prod-us,
 * with an HPA) and its staging HelmRelease (agent nonprod).
 */
export const STOREFRONT_ENTITY_PATH =
  '/api/gitlab-env/entity/default/component/storefront';

export const storefrontWeb: ActionTarget = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  namespace: 'storefront',
  name: 'storefront-web',
};

export const stagingRelease: ActionTarget = {
  apiVersion: 'helm.toolkit.fluxcd.io/v2',
  kind: 'HelmRelease',
  namespace: 'flux-system',
  name: 'storefront-staging',
};

/** The HelmChart the helm-controller makes for the release; the scenario has none. */
export function stagingReleaseChart() {
  return {
    apiVersion: 'source.toolkit.fluxcd.io/v1',
    kind: 'HelmChart',
    metadata: {
      name: 'flux-system-storefront-staging',
      namespace: 'flux-system',
    },
    spec: {
      chart: 'storefront',
      sourceRef: { kind: 'HelmRepository', name: 'acme-charts' },
    },
  };
}
