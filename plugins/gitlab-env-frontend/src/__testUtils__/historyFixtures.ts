import {
  DeploymentChanges,
  DeploymentHistoryResponse,
  DeploymentRecord,
  MergeRequestPreviewResponse,
  PromotionDiffResponse,
  TimelineResponse,
  VersionsResponse,
  WorkloadRevisionsResponse,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';

const GITLAB = 'https://gitlab.example.com';
const PROJECT = `${GITLAB}/acme/shop`;
const minutesAgo = (minutes: number) =>
  new Date(Date.now() - minutes * 60_000).toISOString();

function deployment(
  iid: number,
  overrides: Partial<DeploymentRecord> = {},
): DeploymentRecord {
  const sha = `${String(iid).padStart(
    2,
    '0',
  )}a1b2c3d4e5f60718293a4b5c6d7e8f9012345`;
  return {
    id: String(1000 + iid),
    iid: String(iid),
    status: 'success',
    ref: 'main',
    sha,
    shortSha: sha.slice(0, 8),
    commitTitle: `Release ${iid}`,
    triggerer: {
      name: 'Ada Lovelace',
      username: 'ada',
      webUrl: `${GITLAB}/ada`,
    },
    job: {
      id: String(5000 + iid),
      name: 'deploy-production',
      webUrl: `${PROJECT}/-/jobs/${5000 + iid}`,
      retryable: true,
      pipeline: {
        id: String(900 + iid),
        iid: String(iid),
        webUrl: `${PROJECT}/-/pipelines/${900 + iid}`,
      },
    },
    createdAt: minutesAgo(60 * (50 - iid)),
    finishedAt: minutesAgo(60 * (50 - iid) - 3),
    durationSeconds: 185,
    webUrl: `${PROJECT}/-/environments/3/deployments/${iid}`,
    rollback: {
      available: true,
      command: `curl --request POST --header "PRIVATE-TOKEN: $GITLAB_TOKEN" https://gitlab.example.com/api/v4/projects/acme%2Fshop/jobs/${
        5000 + iid
      }/retry`,
    },
    ...overrides,
  };
}

export function deploymentHistory(
  overrides: Partial<DeploymentHistoryResponse> = {},
): DeploymentHistoryResponse {
  return {
    environment: {
      name: 'production',
      slug: 'production',
      webUrl: `${PROJECT}/-/environments/3`,
    },
    project: { fullPath: 'acme/shop', webUrl: PROJECT },
    deployments: [
      deployment(42, {
        rollback: {
          available: false,
          reason: 'This is what the environment runs now.',
          command: deployment(42).rollback!.command,
        },
      }),
      deployment(41),
      deployment(40, {
        status: 'failed',
        rollback: { available: false, reason: 'It did not succeed.' },
      }),
    ],
    nextCursor: 'page-2',
    source: 'graphql',
    gitlabRollback: { configured: true },
    ...overrides,
  };
}

export const OLDER_PAGE: DeploymentHistoryResponse = deploymentHistory({
  deployments: [deployment(39), deployment(38)],
  nextCursor: undefined,
});

export const CHANGES_OF_42: DeploymentChanges = {
  since: { iid: '41', ref: 'main', sha: deployment(41).sha },
  commits: [
    {
      sha: 'c0ffee1234567890c0ffee1234567890c0ffee12',
      shortSha: 'c0ffee12',
      title: 'Pay with vouchers at checkout',
      authorName: 'Grace Hopper',
      createdAt: minutesAgo(300),
      webUrl: `${PROJECT}/-/commit/c0ffee1234567890c0ffee1234567890c0ffee12`,
    },
    {
      sha: 'beef00001234567890beef00001234567890beef',
      shortSha: 'beef0000',
      title: 'Retry the payment provider once',
      authorName: 'Alan Turing',
      createdAt: minutesAgo(320),
    },
  ],
  mergeRequests: [
    {
      iid: 17,
      title: 'Vouchers',
      state: 'merged',
      authorName: 'Grace Hopper',
      webUrl: `${PROJECT}/-/merge_requests/17`,
    },
  ],
  mergeRequestsFrom: 'deployment',
  images: [
    {
      workload: 'apps/Deployment shop/checkout-api',
      container: 'api',
      from: 'registry.example.com/shop/checkout:1.4.0',
      to: 'registry.example.com/shop/checkout:1.5.0',
      source: 'ReplicaSet',
      revision: 7,
    },
  ],
  compareUrl: `${PROJECT}/-/compare/${deployment(41).sha}...${
    deployment(42).sha
  }`,
};

export const REVISIONS: WorkloadRevisionsResponse = {
  workloads: [
    {
      target: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        namespace: 'shop',
        name: 'checkout-api',
      },
      historyCommand:
        'kubectl rollout history deployment/checkout-api --namespace shop',
      managedBy: {
        by: 'flux',
        object: {
          apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
          kind: 'Kustomization',
          namespace: 'flux-system',
          name: 'shop',
        },
        suspended: false,
        warning:
          'Flux Kustomization shop applies this Deployment: its next reconcile puts the template of the repository back.',
      },
      revisions: [
        {
          revision: 6,
          source: { kind: 'ReplicaSet', name: 'checkout-api-6d5f' },
          createdAt: minutesAgo(600),
          images: { api: 'registry.example.com/shop/checkout:1.4.0' },
          current: false,
          diffFromCurrent: [
            {
              path: 'spec.containers[name=api].image',
              change: 'changed',
              before: 'registry.example.com/shop/checkout:1.5.0',
              after: 'registry.example.com/shop/checkout:1.4.0',
            },
          ],
        },
        {
          revision: 7,
          source: { kind: 'ReplicaSet', name: 'checkout-api-7c9b' },
          createdAt: minutesAgo(180),
          images: { api: 'registry.example.com/shop/checkout:1.5.0' },
          current: true,
          diffFromCurrent: [],
        },
      ],
    },
  ],
};

export function timeline(): TimelineResponse {
  return {
    entries: [
      {
        id: 'h1',
        kind: 'health',
        at: minutesAgo(30),
        environment: 'production',
        summary: 'Healthy → Degraded',
        detail:
          'caused by Deployment checkout-api: Deployment exceeded its progress deadline',
        health: { from: 'Healthy', to: 'Degraded' },
        severity: 'error',
        links: [
          {
            label: 'Deployment checkout-api',
            object: {
              apiVersion: 'apps/v1',
              kind: 'Deployment',
              namespace: 'shop',
              name: 'checkout-api',
            },
          },
        ],
      },
      {
        id: 'd42',
        kind: 'deployment',
        at: minutesAgo(185),
        environment: 'production',
        summary: 'Deployment #42 of main succeeded',
        links: [
          {
            label: 'deployment #42',
            url: `${PROJECT}/-/environments/3/deployments/42`,
          },
          { label: 'job #5042', url: `${PROJECT}/-/jobs/5042` },
        ],
      },
    ],
    retentionDays: 90,
    recording:
      'While nobody views an environment, the overview’s reads record its health every few minutes.',
  };
}

export const VERSIONS: VersionsResponse = {
  entities: [
    {
      entityRef: 'component:default/storefront',
      title: 'storefront',
      project: { fullPath: 'acme/shop', webUrl: PROJECT },
      environments: [
        {
          environment: {
            name: 'production',
            slug: 'production',
            tier: 'production',
          },
          ref: 'main',
          sha: 'bbbbbbbb22222222bbbbbbbb22222222bbbbbbbb',
          shortSha: 'bbbbbbbb',
          deployedAt: minutesAgo(3000),
          images: {
            'checkout-api/api': 'registry.example.com/shop/checkout:1.5.0',
          },
          comparedWith: {
            slug: 'staging',
            name: 'staging',
            behind: 14,
            ahead: 0,
            compareUrl: `${PROJECT}/-/compare/bbbbbbbb...aaaaaaaa`,
            summary: 'production is 14 commits behind staging',
          },
        },
        {
          environment: { name: 'staging', slug: 'staging', tier: 'staging' },
          ref: 'main',
          sha: 'aaaaaaaa11111111aaaaaaaa11111111aaaaaaaa',
          shortSha: 'aaaaaaaa',
          deployedAt: minutesAgo(90),
          images: {
            'checkout-api/api': 'registry.example.com/shop/checkout:1.6.0',
          },
        },
      ],
    },
  ],
};

export const PROMOTION: PromotionDiffResponse = {
  from: VERSIONS.entities[0].environments[1],
  to: VERSIONS.entities[0].environments[0],
  differences: [
    {
      object: { kind: 'Deployment', name: 'checkout-api' },
      aspect: 'image',
      what: 'container api',
      from: 'registry.example.com/shop/checkout:1.6.0',
      to: 'registry.example.com/shop/checkout:1.5.0',
    },
    {
      object: { kind: 'Deployment', name: 'checkout-api' },
      aspect: 'replicas',
      from: '2',
      to: '4',
    },
    {
      object: { kind: 'Secret', name: 'checkout-keys' },
      aspect: 'config',
      what: 'key VOUCHER_API_KEY',
      from: 'set',
      to: 'absent',
      secret: true,
    },
  ],
};

export const MERGE_REQUESTS: MergeRequestPreviewResponse = {
  mergeRequests: [
    {
      iid: 23,
      title: 'Scale checkout for the sale',
      webUrl: `${PROJECT}/-/merge_requests/23`,
      authorName: 'Grace Hopper',
      headSha: 'dddddddd33333333dddddddd33333333dddddddd',
      sourceBranch: 'sale',
      targetBranch: 'main',
      touchedFiles: ['deploy/production/checkout.yaml'],
      environments: [
        {
          environment: { name: 'production', slug: 'production' },
          fluxObject: 'Kustomization flux-system/shop',
          path: 'deploy/production',
          added: [],
          changed: [
            {
              id: 'apps/Deployment/shop/checkout-api',
              file: 'deploy/production/checkout.yaml',
              changes: [
                {
                  path: 'spec.replicas',
                  change: 'changed',
                  desired: 8,
                  live: 4,
                },
              ],
            },
          ],
          removed: [{ id: '/ConfigMap/shop/old-banner', pruned: true }],
          alreadyDrifted: 0,
          notCompared: [
            'HelmRelease shop/redis: its values are rendered by Helm.',
          ],
        },
      ],
    },
  ],
  untouched: 2,
};
