import { ExpectedNamespaces } from './expectedNamespaces';

const all = (expected: ExpectedNamespaces, groupKey: string) => {
  const seen: string[] = [];
  expected.some(groupKey, namespace => {
    seen.push(namespace);
    return false;
  });
  return seen.sort();
};

describe('ExpectedNamespaces', () => {
  afterEach(() => jest.useRealTimers());

  it('expects what readMany registers only while it registers, and keeps what was announced', () => {
    jest.useFakeTimers({ now: 1_000 });
    const expected = new ExpectedNamespaces();
    expected.announce('agent|', ['shop'], 5_000);
    const during = expected.during(
      new Map([
        ['agent|', new Set(['shop', 'cart'])],
        ['other|', new Set(['pay'])],
      ]),
      () => [all(expected, 'agent|'), all(expected, 'other|')],
    );
    expect(during).toEqual([['cart', 'shop'], ['pay']]);
    expect(all(expected, 'agent|')).toEqual(['shop']);
    expect(all(expected, 'other|')).toEqual([]);
    // The announcement ends when it was announced to.
    jest.setSystemTime(5_000);
    expect(all(expected, 'agent|')).toEqual([]);
  });

  it('stops at the first namespace visit says to, and forgets announcements once they ended', () => {
    jest.useFakeTimers({ now: 1_000 });
    const expected = new ExpectedNamespaces();
    expected.announce('agent|', ['a', 'b', 'c'], 2_000);
    expected.announce('agent|', ['d'], 9_000);
    const visited: string[] = [];
    expect(
      expected.some('agent|', namespace => {
        visited.push(namespace);
        return visited.length === 2;
      }),
    ).toBe(true);
    expect(visited).toHaveLength(2);
    expect(expected.some('none|', () => true)).toBe(false);

    // Past its time an announcement is not expected, and forgetEnded drops it.
    expected.forgetEnded(2_000);
    jest.setSystemTime(2_000);
    expect(all(expected, 'agent|')).toEqual(['d']);
    // Registered while another announcement ends: it stays expected meanwhile.
    expect(
      expected.during(new Map([['agent|', new Set(['d'])]]), () => {
        expected.forgetEnded(10_000);
        return all(expected, 'agent|');
      }),
    ).toEqual(['d']);
    expect(all(expected, 'agent|')).toEqual(['d']);
  });
});
