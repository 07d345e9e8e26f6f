import { formatValue } from './api';
import { matches, parseDuration, parsePromql, PromqlError } from './promql';

describe('PromQL subset', () => {
  it('parses aggregations over rate() of a selector, grouping before or after', () => {
    const query =
      'sum by (pod) (rate(container_cpu_usage_seconds_total{namespace="checkout", container!=""}[5m]))';
    expect(parsePromql(query)).toEqual({
      type: 'aggregate',
      op: 'sum',
      grouping: { without: false, labels: ['pod'] },
      expr: {
        type: 'call',
        fn: 'rate',
        rangeMs: 300_000,
        selector: {
          type: 'selector',
          metric: 'container_cpu_usage_seconds_total',
          matchers: [
            { label: 'namespace', op: '=', value: 'checkout' },
            { label: 'container', op: '!=', value: '' },
          ],
        },
      },
    });
    expect(
      parsePromql('max(container_memory_working_set_bytes) without (id, name)'),
    ).toMatchObject({
      op: 'max',
      grouping: { without: true, labels: ['id', 'name'] },
    });
    expect(parseDuration('1h30m')).toBe(5_400_000);
  });

  it('anchors regex matchers as RE2 does and refuses what RE2 cannot run', () => {
    const { matchers } = parsePromql(
      `container_memory_working_set_bytes{pod=~"checkout-api-.*", container!~'envoy|istio-proxy'}`,
    ) as any;
    expect(matches({ pod: 'checkout-api-x', container: 'api' }, matchers)).toBe(
      true,
    );
    expect(
      matches({ pod: 'x-checkout-api-x', container: 'api' }, matchers),
    ).toBe(false);
    expect(
      matches({ pod: 'checkout-api-x', container: 'envoy' }, matchers),
    ).toBe(false);
    expect(() => parsePromql('m{pod=~"(?=x)"}')).toThrow(
      /parse error: invalid regular expression/,
    );
  });

  it.each([
    ['', '1:1: parse error: no expression found in input'],
    [
      'sum(rate(container_cpu_usage_seconds_total[5m])) / 2',
      "1:50: parse error: unexpected character: '/'",
    ],
    [
      'histogram_quantile(0.9, x)',
      '1:1: parse error: function "histogram_quantile" is not supported',
    ],
    [
      'rate(container_cpu_usage_seconds_total)',
      'expected type range vector in call to function "rate", got instant vector',
    ],
    ['m{pod="x"', 'parse error: unexpected end of input, expected "}"'],
    ['m{pod=x}', 'unexpected "x" in label matching, expected string'],
  ])('refuses %j with a Prometheus parse error', (query, message) => {
    expect(() => parsePromql(query)).toThrow(PromqlError);
    expect(() => parsePromql(query)).toThrow(message);
  });

  it('formats values as Go does (no exponent)', () => {
    expect(formatValue(123)).toBe('123');
    expect(formatValue(0.25)).toBe('0.25');
    expect(formatValue(1.5e-7)).toBe('0.00000015');
    expect(formatValue(2e21)).toBe('2000000000000000000000');
    expect(formatValue(NaN)).toBe('NaN');
  });
});
