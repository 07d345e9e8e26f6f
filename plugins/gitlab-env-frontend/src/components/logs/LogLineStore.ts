/** One line of a container's log, as the viewer shows it. */
export interface LogLine {
  /** Unique within a store, in arrival order: React's key. */
  id: number;
  text: string;
  /** The RFC 3339 time Kubernetes stamped the line with, when asked for. */
  timestamp?: string;
  /** Which stream (pod/container) the line came from, when several are merged. */
  source?: string;
}

// Kubernetes prefixes each line with an RFC 3339 time and a space when asked
// for timestamps (kubelet's `--timestamps`, RFC3339Nano).
const TIMESTAMP =
  /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})) /;

/**
 * The lines received so far from one or more log streams: text arrives in
 * chunks that split lines anywhere, lines of several streams are kept in
 * time order, and at most `maxLines` are held so a long follow cannot eat
 * the page's memory. Lines are dropped from the front in whole blocks, so
 * blocks the view already rendered stay the same.
 */
export class LogLineStore {
  private lines: LogLine[] = [];
  private readonly partial = new Map<string, string>();
  private nextId = 0;
  private droppedCount = 0;
  private changes = 0;

  constructor(
    private readonly maxLines: number,
    private readonly blockSize: number,
  ) {}

  /** Adds a chunk of a stream's text; a line is held back until its newline arrives. */
  append(text: string, source = ''): number {
    const buffered = (this.partial.get(source) ?? '') + text;
    const parts = buffered.split('\n');
    this.partial.set(source, parts.pop() ?? '');
    for (const part of parts) this.add(part, source);
    this.trim();
    return parts.length;
  }

  /** The stream ended: its last line needs no newline. */
  end(source = ''): void {
    const rest = this.partial.get(source);
    this.partial.delete(source);
    if (rest) {
      this.add(rest, source);
      this.trim();
    }
  }

  /** A copy of the lines held, oldest first, for one render. */
  snapshot(): readonly LogLine[] {
    return this.lines.slice();
  }

  /** Grows with every change: the view takes a snapshot only when it moved. */
  get version(): number {
    return this.changes;
  }

  /** How many lines were dropped from the front to stay within `maxLines`. */
  get dropped(): number {
    return this.droppedCount;
  }

  private add(raw: string, source: string) {
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const match = TIMESTAMP.exec(text);
    const line: LogLine = match
      ? {
          id: this.nextId++,
          text: text.slice(match[0].length),
          timestamp: match[1],
          source: source || undefined,
        }
      : { id: this.nextId++, text, source: source || undefined };
    insertByTime(this.lines, line);
    this.changes++;
  }

  private trim() {
    const excess = this.lines.length - this.maxLines;
    if (excess <= 0) return;
    const drop = Math.ceil(excess / this.blockSize) * this.blockSize;
    this.lines.splice(0, drop);
    this.changes++;
    this.droppedCount += drop;
  }
}

/**
 * Appends in the common case; a line stamped earlier than the last one (from
 * another pod's stream) goes where its time puts it, after lines of the same
 * time. Unstamped lines stay in arrival order.
 */
function insertByTime(lines: LogLine[], line: LogLine): void {
  const last = lines[lines.length - 1];
  if (
    !line.timestamp ||
    !last?.timestamp ||
    compareTimes(last.timestamp, line.timestamp) <= 0
  ) {
    lines.push(line);
    return;
  }
  let low = 0;
  let high = lines.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const stamp = lines[middle].timestamp;
    if (stamp && compareTimes(stamp, line.timestamp) > 0) high = middle;
    else low = middle + 1;
  }
  lines.splice(low, 0, line);
}

// RFC 3339 times in UTC with the same precision compare as strings; others
// (offsets, differing fractions) through Date.
function compareTimes(a: string, b: string): number {
  if (a.length === b.length && a.endsWith('Z') && b.endsWith('Z')) {
    if (a === b) return 0;
    return a < b ? -1 : 1;
  }
  return Date.parse(a) - Date.parse(b);
}
