import { TimelineEntry } from '../types';
import { changeLine, recentChangesAnswer } from './recentChanges';

const entry = (i: number, detail?: string): TimelineEntry => ({
  id: String(i),
  kind: 'health',
  at: new Date(Date.UTC(2026, 10, 26, 12) - i * 60_000).toISOString(),
  environment: 'production',
  summary: 'Healthy → Degraded',
  detail,
  severity: 'error',
  links: [
    {
      label: 'Deployment web',
      object: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        namespace: 'shop',
        name: 'web',
      },
    },
  ],
});

describe('recentChangesAnswer', () => {
  it('says each change on one line: when, kind, severity, what, detail, objects', () => {
    expect(
      changeLine(
        entry(0, 'caused by Deployment web:\n  exceeded its progress deadline'),
      ),
    ).toBe(
      '2026-11-26T12:00:00.000Z health [error]: Healthy → Degraded — caused by Deployment web: exceeded its progress deadline (Deployment/web)',
    );
    expect(changeLine({ ...entry(1), severity: undefined, links: [] })).toBe(
      '2026-11-26T11:59:00.000Z health: Healthy → Degraded',
    );
  });

  it('keeps a page of long changes under 8 KB, the cursor after the last one kept', () => {
    const entries = Array.from({ length: 200 }, (_, i) =>
      entry(i, 'x'.repeat(2000)),
    );
    const cursorAfter = (e: TimelineEntry) => `after-${e.id}`;
    const answer = recentChangesAnswer(
      'production',
      { entries, nextCursor: 'page-cursor', retentionDays: 30 },
      cursorAfter,
    );
    expect(Buffer.byteLength(JSON.stringify(answer))).toBeLessThan(8 * 1024);
    expect(answer.changes.length).toBeGreaterThan(5);
    expect(answer.changes.length).toBeLessThan(entries.length);
    expect(answer.nextCursor).toBe(`after-${answer.changes.length - 1}`);
    // A page that fits keeps the page's own cursor (or none at the end).
    const small = recentChangesAnswer(
      'production',
      {
        entries: entries.slice(0, 3).map(e => ({ ...e, detail: 'short' })),
        retentionDays: 30,
      },
      cursorAfter,
    );
    expect(small.changes).toHaveLength(3);
    expect(small.nextCursor).toBeUndefined();
  });
});
