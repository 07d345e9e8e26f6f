import { parseQuantity } from './quantity';

describe('parseQuantity', () => {
  it.each([
    ['250m', 0.25],
    ['1', 1],
    ['1.5', 1.5],
    ['12345678n', 0.012345678],
    ['500u', 0.0005],
    ['128Mi', 134217728],
    ['1234Ki', 1263616],
    ['2Gi', 2147483648],
    ['1k', 1000],
    ['1M', 1e6],
    ['1e3', 1000],
    ['1E-2', 0.01],
    ['.5', 0.5],
    [' 100m ', 0.1],
    [3, 3],
  ])('%p is %p', (quantity, value) => {
    expect(parseQuantity(quantity)).toBeCloseTo(value, 12);
  });

  it.each(['', 'm', '1x', '1Kib', '1mi', 'abc', '1.2.3', '--1', null, {}, NaN])(
    'refuses %p',
    quantity => {
      expect(parseQuantity(quantity)).toBeUndefined();
    },
  );
});
