// The classic JSX transform of this repository's tsconfig needs React in scope.
// eslint-disable-next-line no-restricted-syntax
import * as React from 'react';
import { screen, within } from '@testing-library/react';
import { renderInTestApp } from '@backstage/test-utils';
import {
  NamespaceMapping,
  NarrowedScope,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  MappingSource,
  NamespaceMappingDetails,
  NamespaceOrigin,
} from './NamespaceSource';

const markers = { app: 'acme-platform-search-indexer', env: 'load-test' };

function renderMapping(mapping: NamespaceMapping, narrowed?: NarrowedScope) {
  return renderInTestApp(
    <>
      <MappingSource mapping={mapping} />
      <NamespaceMappingDetails mapping={mapping} narrowed={narrowed} />
    </>,
  );
}

const commands = () =>
  within(screen.getByRole('list', { name: 'How the namespace was found' }))
    .getAllByRole('listitem')
    .map(item => item.textContent);

describe('where the namespace came from', () => {
  it("GitLab's settings: said, with no command and no narrowing", async () => {
    await renderMapping({ source: 'gitlab' });
    expect(screen.getByTestId('namespace-source')).toHaveTextContent(
      "namespace from the environment's settings in GitLab",
    );
    expect(
      screen.queryByRole('region', { name: 'Namespace mapping' }),
    ).not.toBeInTheDocument();
  });

  it('a GitLabDeployment: its name, status and the kubectl command', async () => {
    await renderMapping({
      source: 'gitlabDeployment',
      name: 'search-indexer-staging',
      status: 'Ready=True',
      kubectl:
        'kubectl get gitlabdeployments.gitlab.com search-indexer-staging -o yaml',
    });
    expect(screen.getByTestId('namespace-source')).toHaveTextContent(
      'namespace from the GitLabDeployment search-indexer-staging (Ready=True)',
    );
    expect(commands()).toEqual([
      'kubectl get gitlabdeployments.gitlab.com search-indexer-staging -o yaml',
    ]);
  });

  it('the GitLab annotations (label): the workloads, the command, and a shared namespace narrowed by them', async () => {
    await renderMapping(
      {
        source: 'label',
        name: 'Deployment/search-loadgen',
        kubectl: 'kubectl get deployments,statefulsets,daemonsets -n s',
        narrowing: {
          by: 'label',
          sharedWith: ['environment staging'],
          markers,
          kubectl: 'kubectl get deployments,statefulsets,daemonsets -n s',
        },
      },
      {
        by: 'label',
        sharedWith: ['environment staging'],
        hidden: 4,
        hiddenOwners: ['Kustomization flux-system/search-indexer-staging'],
      },
    );
    expect(screen.getByTestId('namespace-source')).toHaveTextContent(
      'namespace from the workloads carrying its GitLab annotations: Deployment/search-loadgen',
    );
    expect(screen.getByTestId('shared-namespace')).toHaveTextContent(
      'The namespace is shared with environment staging: its objects are those carrying its GitLab annotations (app.gitlab.com/env: load-test), and those nobody claims. 4 objects of others hidden (Kustomization flux-system/search-indexer-staging).',
    );
    // One command, not the same one twice.
    expect(commands()).toEqual([
      'kubectl get deployments,statefulsets,daemonsets -n s',
    ]);
  });

  it('a Flux inventory: the Kustomization, and the namespace narrowed to its inventory', async () => {
    await renderMapping(
      {
        source: 'inventory',
        name: 'Kustomization/flux-system/app',
        kubectl:
          "kubectl get kustomization.kustomize.toolkit.fluxcd.io app -n flux-system -o jsonpath='{.status.inventory.entries[*].id}'",
        narrowing: {
          by: 'inventory',
          sharedWith: [],
          flux: {
            kind: 'Kustomization',
            namespace: 'flux-system',
            name: 'app',
          },
          markers,
        },
      },
      { by: 'inventory', sharedWith: [], hidden: 0, hiddenOwners: [] },
    );
    expect(screen.getByTestId('namespace-source')).toHaveTextContent(
      'namespace from the inventory of Kustomization/flux-system/app',
    );
    expect(screen.getByTestId('shared-namespace')).toHaveTextContent(
      'The namespace is not dedicated to this environment: its objects are those of the inventory of Kustomization flux-system/app, and those nobody claims. Nothing of others was found in it.',
    );
    expect(commands()).toHaveLength(1);
  });
});

describe('the namespace on a card', () => {
  it('says where it came from when GitLab did not give it, and that it is shared', async () => {
    await renderInTestApp(
      <NamespaceOrigin
        mapping={{
          source: 'label',
          narrowing: { by: 'label', sharedWith: [], markers },
        }}
      />,
    );
    expect(screen.getByTestId('namespace-origin')).toHaveTextContent(
      '(from GitLab annotations, shared)',
    );
  });

  it("says nothing for GitLab's own namespace nobody shares", async () => {
    await renderInTestApp(<NamespaceOrigin mapping={{ source: 'gitlab' }} />);
    expect(screen.queryByTestId('namespace-origin')).not.toBeInTheDocument();
  });
});
