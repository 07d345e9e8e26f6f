/** A compact age like kubectl prints it: 45s, 12m, 3h, 5d. */
export function formatAge(
  timestamp: string | undefined,
  now: number,
): string | undefined {
  if (!timestamp) return undefined;
  const since = Date.parse(timestamp);
  if (Number.isNaN(since)) return undefined;
  const seconds = Math.max(0, Math.floor((now - since) / 1000));
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h`;
  return `${Math.floor(hours / 24)}d`;
}

export function shortSha(sha: string | undefined): string | undefined {
  return sha?.slice(0, 8);
}

/** A duration as people say it: 45s, 3m 20s, 1h 05m. */
export function formatDuration(
  seconds: number | undefined,
): string | undefined {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0)
    return undefined;
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole}s`;
  const minutes = Math.floor(whole / 60);
  if (minutes < 60)
    return `${minutes}m ${String(whole % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(
    2,
    '0',
  )}m`;
}

/** A moment in the reader's time zone, to the minute: `26 Nov 2026, 14:05`. */
export function formatTime(
  timestamp: string | number | undefined,
): string | undefined {
  if (timestamp === undefined) return undefined;
  const at = typeof timestamp === 'number' ? timestamp : Date.parse(timestamp);
  if (Number.isNaN(at)) return undefined;
  return new Date(at).toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

/** A field's value in a diff: strings as they are, anything else as JSON, absent as a dash. */
export function fieldValueText(value: unknown): string {
  if (value === undefined) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * A node's status line as the graph and the drawer show it: the engine's
 * words for the object (`statusWords`) and its age, like `kubectl get`.
 */
export function statusLine(
  node: { status: readonly string[]; createdAt?: string },
  now: number,
): string {
  const age = formatAge(node.createdAt, now);
  return [...node.status, ...(age ? [age] : [])].join(' · ');
}

/** CPU in cores as kubectl top prints it: `250m`, or cores past one (`1.25`). */
export function formatCpu(cores: number | undefined): string {
  if (cores === undefined) return '–';
  if (cores < 1) return `${Math.round(cores * 1000)}m`;
  return `${Number(cores.toFixed(2))}`;
}

/** Bytes in binary units as kubectl top prints them: `312Mi`, `1.5Gi`. */
export function formatBytes(bytes: number | undefined): string {
  if (bytes === undefined) return '–';
  const gi = 2 ** 30;
  if (bytes >= gi) return `${Number((bytes / gi).toFixed(2))}Gi`;
  return `${Math.round(bytes / 2 ** 20)}Mi`;
}
