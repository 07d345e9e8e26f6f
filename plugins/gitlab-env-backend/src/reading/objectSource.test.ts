import { KubernetesObject } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { failure } from '../errors';
import type { KasClient } from '../transport/kasClient';
import { getObject, listKind } from './objectSource';
import { REDACTED_SECRET_VALUE } from './objects';
import { ReadBounds } from './readBounds';
import { StringPool } from './stringPool';
import { POD_KIND as pods } from '../__testUtils__/kinds';

/** An API server with `count` pods that pages as Kubernetes does, refusing pages over `maxItems`. */
function apiServer(count: number, maxItems = Infinity) {
  const limits: number[] = [];
  const kas = {
    async get(path: string) {
      const query = new URL(path, 'http://kas').searchParams;
      const limit = Number(query.get('limit'));
      const start = Number(query.get('continue') ?? 0);
      limits.push(limit);
      if (limit > maxItems)
        throw failure('LIMIT_REACHED', 'The answer is larger than allowed.');
      const end = Math.min(count, start + limit);
      return {
        kind: 'PodList',
        metadata: {
          resourceVersion: '7',
          ...(end < count && {
            continue: String(end),
            remainingItemCount: count - end,
          }),
        },
        items: Array.from({ length: end - start }, (_, i) => ({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: `pod-${start + i}`, namespace: 'shop' },
        })),
      };
    },
  } as unknown as KasClient;
  return { kas, limits };
}

const bounds = (maxPages = 100, maxObjects = 100_000) =>
  new ReadBounds(maxPages, maxObjects, () => undefined);

describe('listKind', () => {
  it('asks for what remains after the first page, in pages of at most 5,000', async () => {
    const { kas, limits } = apiServer(12_000);
    const listed: KubernetesObject[] = await listKind(kas, pods, {
      bounds: bounds(),
    });
    expect(listed).toHaveLength(12_000);
    expect(new Set(listed.map(o => o.metadata?.name)).size).toBe(12_000);
    expect(limits).toEqual([500, 5000, 5000, 1500]);
  });

  it('asks a page the answer bound refuses again at 500, and keeps to 500', async () => {
    const { kas, limits } = apiServer(2_000, 1_000);
    const listed = await listKind(kas, pods, { bounds: bounds() });
    expect(listed).toHaveLength(2_000);
    expect(limits).toEqual([500, 1500, 500, 500, 500]);
  });

  it('counts pages in units of 500 objects against maxPagesPerList', async () => {
    const warnings: string[] = [];
    const { kas, limits } = apiServer(12_000);
    const listed = await listKind(kas, pods, {
      bounds: new ReadBounds(4, 100_000, w => warnings.push(w.message)),
    });
    expect(listed).toHaveLength(2_000);
    expect(limits).toEqual([500, 1500]);
    expect(warnings).toEqual([
      'The list of Pod has more than 4 pages of 500 (gitlabEnv.limits.maxPagesPerList); showing the first 2000 objects.',
    ]);
  });
});

describe('reading a Secret embedded in an item', () => {
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'inner' },
    data: { token: 'c2VjcmV0LXRva2Vu' },
  };
  // A fresh answer per request, as one parsed from the wire.
  const item = () => ({
    metadata: { name: 'bundle', namespace: 'shop' },
    spec: { a: [{ b: { c: [{ d: structuredClone(secret) }] } }] },
  });
  const kas = {
    async get(path: string) {
      return path.includes('?') ? { metadata: {}, items: [item()] } : item();
    },
  } as unknown as KasClient;

  it('redacts it in every item of a list and in an object read alone', async () => {
    const listed = await listKind(kas, pods, { bounds: bounds() });
    const alone = await getObject(
      kas,
      {
        group: '',
        version: 'v1',
        plural: 'pods',
        kind: 'Pod',
        namespace: 'shop',
        name: 'bundle',
        label: 'Pod',
      },
      bounds(),
    );
    for (const read of [listed[0], alone]) {
      expect(JSON.stringify(read)).not.toContain('c2VjcmV0LXRva2Vu');
      expect(read?.spec?.a[0].b.c[0].d.data).toEqual({
        token: REDACTED_SECRET_VALUE,
      });
    }
  });

  it("pools the short values of a list in its bounds' pool as it redacts", async () => {
    const strings = new StringPool();
    const answer = {
      get: async () => ({
        metadata: {},
        items: [
          {
            ...item(),
            metadata: { name: 'bundle', namespace: 'shop-production' },
          },
        ],
      }),
    } as unknown as KasClient;
    const [listed] = await listKind(answer, pods, {
      bounds: new ReadBounds(100, 100_000, () => undefined, undefined, strings),
    });
    expect(strings.has('shop-production')).toBe(true);
    expect(strings.has('c2VjcmV0LXRva2Vu')).toBe(false);
    expect(listed.spec?.a[0].b.c[0].d.data).toEqual({
      token: REDACTED_SECRET_VALUE,
    });
  });
});
