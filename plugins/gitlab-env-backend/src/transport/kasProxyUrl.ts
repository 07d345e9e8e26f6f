/**
 * KAS's Kubernetes API proxy URL from `kas.externalUrl`, for GitLab before
 * 17.6 (which has no `kas.externalK8sProxyUrl`): what Rails computes as
 * `Gitlab::Kas.tunnel_url`, `URI.join(external_url, "k8s-proxy")` with
 * `wss`/`grpcs` → `https` and `ws`/`grpc` → `http`, and what glab does
 * (agentutils `GetKasK8SProxyURL`): `wss://host` → `https://host/k8s-proxy`,
 * `wss://host/-/kubernetes-agent/` → `https://host/-/kubernetes-agent/k8s-proxy`,
 * the port kept. Undefined for anything that is not such a URL.
 */
export function deriveKasProxyUrl(externalUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(externalUrl);
  } catch {
    return undefined;
  }
  const scheme = {
    'wss:': 'https:',
    'grpcs:': 'https:',
    'ws:': 'http:',
    'grpc:': 'http:',
  }[url.protocol];
  if (!scheme || url.username || url.password) return undefined;
  // The WHATWG parser treats ws/wss as special but not grpc(s); rebuild on http(s).
  const base = new URL(
    `${scheme}//${url.host}${url.pathname === '' ? '/' : url.pathname}`,
  );
  return new URL('k8s-proxy', base).toString();
}
