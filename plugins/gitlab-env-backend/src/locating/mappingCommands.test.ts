import { gitlabDeploymentCommand, inventoryCommand } from './mappingCommands';

describe('the mapping commands', () => {
  it('keep a name from GitLab or the cluster one shell word', () => {
    expect(gitlabDeploymentCommand("x; rm -rf ~ 'y")).toBe(
      `kubectl get gitlabdeployments.gitlab.com 'x; rm -rf ~ '\\''y' -o yaml`,
    );
    expect(
      inventoryCommand(
        'kustomizations.kustomize.toolkit.fluxcd.io',
        '$(id)',
        'flux-system',
      ),
    ).toBe(
      "kubectl get kustomizations.kustomize.toolkit.fluxcd.io '$(id)' -n flux-system -o jsonpath='{.status.inventory.entries[*].id}'",
    );
  });
});
