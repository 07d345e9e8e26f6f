import { statusLine } from './format';

describe('statusLine', () => {
  const now = Date.parse('2026-01-02T00:00:00Z');

  it("follows the engine's words with the object's age, like kubectl get", () => {
    expect(
      statusLine(
        { status: ['2/3 ready'], createdAt: '2026-01-01T21:00:00Z' },
        now,
      ),
    ).toBe('2/3 ready · 3h');
  });

  it('is the words alone without a creation time, the age alone without words', () => {
    expect(statusLine({ status: ['Bound'] }, now)).toBe('Bound');
    expect(
      statusLine({ status: [], createdAt: '2026-01-01T23:59:15Z' }, now),
    ).toBe('45s');
  });
});
