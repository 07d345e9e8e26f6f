/**
 * What each GitLab version enables. The plugin's floor is 16.4: personal
 * access tokens through KAS's Kubernetes API proxy (doc/user/clusters/agent/user_access.md,
 * MR !131144) and `Environment.fluxResourcePath` GA (doc/ci/environments/kubernetes_dashboard.md).
 */
export const MINIMUM_GITLAB_VERSION = '16.4';

/** GraphQL fields asked for only from the version that has them. */
export const FIELD_SINCE = {
  /** `Environment.clusterAgent` (kubernetes_dashboard.md: 16.2). */
  environmentClusterAgent: '16.2',
  /** `Environment.kubernetesNamespace` (kubernetes_dashboard.md: 16.3). */
  environmentKubernetesNamespace: '16.3',
  /** `Environment.fluxResourcePath` (kubernetes_dashboard.md: 16.4). */
  environmentFluxResourcePath: '16.4',
  /**
   * `Environment.deployments` with `commit`, `job` and `triggerer` (MRs
   * !95255 and !95792, 15.3 to 15.5, release UNCONFIRMED: below the 16.4
   * floor either way). The REST deployments API serves the history where
   * GitLab refuses the document.
   */
  environmentDeployments: '15.5',
  /** `Kas.externalK8sProxyUrl` (doc/api/metadata.md: 17.6, MR !172373). */
  kasExternalK8sProxyUrl: '17.6',
} as const;

function majorMinor(version: string): [number, number] | undefined {
  const match = version.match(/^v?(\d+)\.(\d+)/);
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

/**
 * Is `version` at least `floor`? An unreadable version counts as new: the
 * plugin then asks for every field, and GitLab's own validation error says
 * what is missing.
 */
export function versionAtLeast(
  version: string | undefined,
  floor: string,
): boolean {
  const have = version ? majorMinor(version) : undefined;
  const need = majorMinor(floor)!;
  if (!have) return true;
  return have[0] > need[0] || (have[0] === need[0] && have[1] >= need[1]);
}
