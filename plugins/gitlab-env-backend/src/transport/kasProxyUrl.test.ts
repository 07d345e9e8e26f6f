import { deriveKasProxyUrl } from './kasProxyUrl';

describe('deriveKasProxyUrl (Gitlab::Kas.tunnel_url, glab TestAgent_GetKasK8SProxyURL)', () => {
  it.each([
    [
      'wss://kas.gitlab.example.com',
      'https://kas.gitlab.example.com/k8s-proxy',
    ],
    [
      'wss://gitlab.example.com/-/kubernetes-agent/',
      'https://gitlab.example.com/-/kubernetes-agent/k8s-proxy',
    ],
    [
      'wss://gitlab.example.com:8443/-/kubernetes-agent/',
      'https://gitlab.example.com:8443/-/kubernetes-agent/k8s-proxy',
    ],
    [
      'ws://127.0.0.1:8150/-/kubernetes-agent/',
      'http://127.0.0.1:8150/-/kubernetes-agent/k8s-proxy',
    ],
    ['grpcs://kas.example.com:443', 'https://kas.example.com/k8s-proxy'],
    ['grpc://kas.example.com:8150', 'http://kas.example.com:8150/k8s-proxy'],
  ])('%s → %s', (externalUrl, proxyUrl) => {
    expect(deriveKasProxyUrl(externalUrl)).toBe(proxyUrl);
  });

  it.each([
    'https://kas.example.com',
    'not a url',
    'wss://user:pw@kas.example.com',
    '',
  ])('refuses %s', externalUrl => {
    expect(deriveKasProxyUrl(externalUrl)).toBeUndefined();
  });
});
