import { BUILTIN_RESOURCES } from './resources';
import {
  parseFieldSelector,
  parseLabelSelector,
  SelectorError,
} from './selectors';

const pod = (labels: Record<string, string>, phase = 'Running') => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns', labels },
  status: { phase },
});
const pods = BUILTIN_RESOURCES.find(r => r.plural === 'pods')!;
const deployments = BUILTIN_RESOURCES.find(r => r.plural === 'deployments')!;

describe('label selectors', () => {
  it.each([
    ['app=web', { app: 'web' }, true],
    ['app=web', { app: 'db' }, false],
    ['app!=web', {}, true],
    ['tier in (a, b)', { tier: 'b' }, true],
    ['tier in (a,b)', {}, false],
    ['tier notin (a,b)', {}, true],
    ['tier', { tier: '' }, true],
    ['!tier', { tier: 'x' }, false],
    ['version>2', { version: '3' }, true],
    ['app=web,tier in (a,b),!legacy', { app: 'web', tier: 'a' }, true],
    ['', { any: 'thing' }, true],
  ])('%s on %j -> %s', (selector, labels, expected) => {
    expect(parseLabelSelector(selector)(pod(labels))).toBe(expected);
  });

  it('rejects what the API server cannot parse', () => {
    expect(() => parseLabelSelector('app==')).not.toThrow();
    expect(() => parseLabelSelector('a b')).toThrow(SelectorError);
    expect(() => parseLabelSelector('tier in ()')).toThrow(SelectorError);
  });
});

describe('field selectors', () => {
  it('supports per-resource fields and !=', () => {
    expect(
      parseFieldSelector('status.phase!=Running', pods)(pod({}, 'Pending')),
    ).toBe(true);
    expect(
      parseFieldSelector(
        'metadata.name=p,metadata.namespace=ns',
        pods,
      )(pod({})),
    ).toBe(true);
    expect(() =>
      parseFieldSelector('status.phase=Running', deployments),
    ).toThrow('field label not supported: status.phase');
  });
});
