import { LogLineStore } from './LogLineStore';

describe('LogLineStore', () => {
  it('joins lines split across chunks and holds back a line until its newline', () => {
    const store = new LogLineStore(100, 10);
    store.append('first li');
    store.append('ne\nsecond\r\nthi');
    expect(store.snapshot().map(l => l.text)).toEqual(['first line', 'second']);
    store.end();
    expect(store.snapshot().map(l => l.text)).toEqual([
      'first line',
      'second',
      'thi',
    ]);
  });

  it('takes the RFC 3339 time off the front of a line', () => {
    const store = new LogLineStore(100, 10);
    store.append(
      '2026-11-23T22:00:00.123456789Z GET /health 200\nno time here\n',
    );
    const [stamped, plain] = store.snapshot();
    expect(stamped).toMatchObject({
      text: 'GET /health 200',
      timestamp: '2026-11-23T22:00:00.123456789Z',
    });
    expect(plain.text).toBe('no time here');
    expect(plain.timestamp).toBeUndefined();
  });

  it('interleaves the lines of several pods by time, keeping arrival order for equal times', () => {
    const store = new LogLineStore(100, 10);
    store.append('2026-11-23T22:00:01Z a1\n2026-11-23T22:00:03Z a3\n', 'a');
    store.append('2026-11-23T22:00:02Z b2\n2026-11-23T22:00:03Z b3\n', 'b');
    store.append('2026-11-23T22:00:00+01:00 b0\n', 'b');
    expect(store.snapshot().map(l => `${l.source}:${l.text}`)).toEqual([
      'b:b0',
      'a:a1',
      'b:b2',
      'a:a3',
      'b:b3',
    ]);
  });

  it('drops the oldest lines in whole blocks beyond its limit and counts them', () => {
    const store = new LogLineStore(25, 10);
    store.append(
      `${Array.from({ length: 31 }, (_, i) => `line ${i}`).join('\n')}\n`,
    );
    const lines = store.snapshot();
    expect(lines).toHaveLength(21);
    expect(lines[0].text).toBe('line 10');
    expect(store.dropped).toBe(10);
  });

  it('hands out a snapshot that later lines do not change, and moves its version on change', () => {
    const store = new LogLineStore(100, 10);
    store.append('one\n');
    const before = store.snapshot();
    const version = store.version;
    store.append('two\n');
    expect(before).toHaveLength(1);
    expect(store.version).toBeGreaterThan(version);
  });
});
