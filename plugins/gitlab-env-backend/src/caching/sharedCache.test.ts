import { CacheService } from '@backstage/backend-plugin-api';
import { mockServices } from '@backstage/backend-test-utils';
import { CoalescingCache } from './cache';
import { SharedReadCache, sharedStoreOf } from './sharedCache';

const TTL_MS = 30_000;

function sharedCache(store: CacheService | undefined, storeTimeoutMs = 50) {
  const logger = mockServices.logger.mock();
  const cache = new SharedReadCache(
    new CoalescingCache({ ttlMs: TTL_MS }),
    store,
    {
      defaultTtlMs: TTL_MS,
      logger,
      storeTimeoutMs,
    },
  );
  return { cache, logger };
}

/** A store in a Map, standing in for Redis between two processes. */
function mapStore(): CacheService {
  const values = new Map<string, unknown>();
  const store: CacheService = {
    get: async key => values.get(key) as any,
    set: async (key, value) => {
      values.set(key, JSON.parse(JSON.stringify(value)));
    },
    delete: async key => {
      values.delete(key);
    },
    withOptions: () => store,
  };
  return store;
}

function failingStore(get: CacheService['get']): CacheService {
  const store: CacheService = {
    get,
    set: jest.fn(async () => {}),
    delete: jest.fn(async () => {}),
    withOptions: () => store,
  };
  return store;
}

describe('SharedReadCache', () => {
  it('serves what another process stored, without loading', async () => {
    const store = mapStore();
    const { cache: writer } = sharedCache(store);
    const { cache: reader } = sharedCache(store);
    await writer.getOrLoad('read|a', async () => ({ objects: 3 }));
    await new Promise(resolve => setImmediate(resolve)); // the write is not awaited

    const load = jest.fn(async () => ({ objects: 0 }));
    await expect(reader.getOrLoad('read|a', load)).resolves.toEqual({
      objects: 3,
    });
    expect(load).not.toHaveBeenCalled();
  });

  it('shares one in-flight load between concurrent callers of a process', async () => {
    const { cache } = sharedCache(mapStore());
    let resolveLoad: (value: string) => void = () => {};
    const load = jest.fn(
      () => new Promise<string>(resolve => (resolveLoad = resolve)),
    );
    const both = Promise.all([
      cache.getOrLoad('k', load),
      cache.getOrLoad('k', load),
    ]);
    await new Promise(resolve => setTimeout(resolve, 10));
    resolveLoad('value');
    await expect(both).resolves.toEqual(['value', 'value']);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('reads upstream, and warns once, when the store fails', async () => {
    const store = failingStore(async () => {
      throw new Error('ECONNREFUSED 127.0.0.1:6379');
    });
    const { cache, logger } = sharedCache(store);
    await expect(cache.getOrLoad('a', async () => 1)).resolves.toBe(1);
    await expect(cache.getOrLoad('b', async () => 2)).resolves.toBe(2);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(String(logger.warn.mock.calls[0][0])).toContain('ECONNREFUSED');
  });

  it('reads upstream when the store does not answer in time', async () => {
    const store = failingStore(() => new Promise(() => {}));
    const { cache, logger } = sharedCache(store, 20);
    await expect(cache.getOrLoad('a', async () => 'fresh')).resolves.toBe(
      'fresh',
    );
    expect(String(logger.warn.mock.calls[0][0])).toContain(
      'no answer within 20 ms',
    );
  });

  it('stores values with the TTL they are cached for', async () => {
    const store = failingStore(async () => undefined);
    const { cache } = sharedCache(store);
    await cache.getOrLoad('discovery|x', async () => ['pods'], {
      ttlMs: 600_000,
    });
    expect(store.set).toHaveBeenCalledWith('v1|discovery|x', ['pods'], {
      ttl: 600_000,
    });
  });

  it('does not store failures, which stay in the process', async () => {
    const store = failingStore(async () => undefined);
    const { cache } = sharedCache(store);
    await expect(
      cache.getOrLoad('a', async () => {
        throw new Error('KAS is down');
      }),
    ).rejects.toThrow('KAS is down');
    expect(store.set).not.toHaveBeenCalled();
  });
});

describe('sharedStoreOf', () => {
  const cache = mapStore();
  const config = (data: object) => mockServices.rootConfig({ data });

  it('uses the CacheService when backend.cache names a shared store', () => {
    const redis = config({ backend: { cache: { store: 'redis' } } });
    expect(sharedStoreOf(redis, cache)).toBe(cache);
  });

  it('keeps reads in the process with the default memory store', () => {
    expect(sharedStoreOf(config({}), cache)).toBeUndefined();
    const memory = config({ backend: { cache: { store: 'memory' } } });
    expect(sharedStoreOf(memory, cache)).toBeUndefined();
  });
});
