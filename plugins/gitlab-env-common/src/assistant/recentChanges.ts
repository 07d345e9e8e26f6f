import { TimelineEntry } from '../types';
import { LIST_BUDGET_BYTES, shortMessage, takeWithin } from './compactAnswers';

/**
 * An environment's recent changes as an assistant is told them: one line
 * each, newest first, within a few KB. `nextCursor` reads the older ones.
 *
 * @public
 */
export interface RecentChangesAnswer {
  environment: string;
  changes: string[];
  /** Older changes are recorded: pass as `cursor` to read them. */
  nextCursor?: string;
  retentionDays: number;
}

const SEVERITY_MARK: Record<string, string> = {
  warning: ' [warning]',
  error: ' [error]',
};

/**
 * One timeline entry on one line: its time, kind, severity (warning or
 * error), what happened, the detail (e.g. a health transition's cause) and
 * the objects it names as the actions take them (`Deployment/web`).
 *
 * @public
 */
export function changeLine(entry: TimelineEntry): string {
  const objects = entry.links
    .flatMap(l => (l.object ? [`${l.object.kind}/${l.object.name}`] : []))
    .slice(0, 2);
  const detail = shortMessage(entry.detail);
  return `${entry.at} ${entry.kind}${
    SEVERITY_MARK[entry.severity ?? ''] ?? ''
  }: ${shortMessage(entry.summary) ?? ''}${detail ? ` — ${detail}` : ''}${
    objects.length > 0 ? ` (${objects.join(', ')})` : ''
  }`;
}

/**
 * A page of an environment's timeline (newest first) as one line per
 * change, as many as fit the list budget: when fewer than the page fit,
 * `cursorAfter` of the last one kept is the next cursor, else the page's.
 *
 * @public
 */
export function recentChangesAnswer(
  environment: string,
  page: {
    entries: TimelineEntry[];
    nextCursor?: string;
    retentionDays: number;
  },
  cursorAfter: (entry: TimelineEntry) => string,
): RecentChangesAnswer {
  const changes = takeWithin(
    page.entries,
    page.entries.length,
    LIST_BUDGET_BYTES,
    changeLine,
  );
  const nextCursor =
    changes.length < page.entries.length
      ? cursorAfter(page.entries[changes.length - 1])
      : page.nextCursor;
  return {
    environment,
    changes,
    ...(nextCursor && { nextCursor }),
    retentionDays: page.retentionDays,
  };
}
