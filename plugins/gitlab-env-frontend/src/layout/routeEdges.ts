import { ResourceGraphLayout } from './layoutResourceGraph';

/**
 * Routes the edges that are not the tree's (routes, selects, mounts,
 * scales, uses, Flux sources) around the node boxes of a laid-out forest.
 *
 * The layout leaves an empty channel between two columns and a gap between
 * two rows of a column. An edge leaves its source to the right into the
 * channel after the source's column, runs vertically there to a row gap
 * that is free in every column it has to cross, runs along that gap to the
 * channel before the target's column, and enters the target from the left:
 * every segment lies in a channel or a gap, so no edge crosses a box. An
 * edge to the next column needs no gap at all. Parallel edges in one
 * channel get lanes of their own, off the channel's centre where the
 * tree's own edges turn. Written here because the layout is a strict
 * column grid (a general router such as ELK's or libavoid's would first
 * have to be told that, and costs far more than this linear pass per edge).
 */

export interface RoutableEdge {
  id: string;
  source: string;
  target: string;
}

export interface Point {
  x: number;
  y: number;
}

/** Lanes in a channel: this far apart, off the centre the tree's edges use. */
const LANE_STEP = 7;

export function routeEdges(
  layout: ResourceGraphLayout,
  edges: readonly RoutableEdge[],
): Map<string, Point[]> {
  const { positions, nodeWidth: w, nodeHeight: h } = layout;
  const columnStep = columnStepOf(layout);
  const gap = columnStep - w;
  const rowGap = layout.rowGap ?? 14;
  const margin = Math.max(1, rowGap / 2 - 1);

  // Each column's boxes as [top, bottom] intervals, sorted.
  const columns = new Map<number, Array<[number, number]>>();
  for (const place of positions.values()) {
    const column = columns.get(place.depth) ?? [];
    column.push([place.y - margin, place.y + h + margin]);
    columns.set(place.depth, column);
  }
  for (const column of columns.values()) column.sort((a, b) => a[0] - b[0]);

  // Channel c lies right of column c; channel -1 left of column 0.
  const channelCentre = (channel: number) => channel * columnStep + w + gap / 2;
  const lanesUsed = new Map<number, number>();
  const lane = (channel: number) => {
    const used = lanesUsed.get(channel) ?? 0;
    lanesUsed.set(channel, used + 1);
    const maxLanes = Math.max(1, Math.floor((gap / 2 - 4) / LANE_STEP));
    const step = (used % maxLanes) + 1;
    // Alternate sides: +1, -1, +2, -2, ...
    const offset = Math.ceil(step / 2) * LANE_STEP * (step % 2 ? 1 : -1);
    return channelCentre(channel) + (maxLanes === 1 ? LANE_STEP : offset);
  };

  const routes = new Map<string, Point[]>();
  for (const edge of edges) {
    const from = positions.get(edge.source);
    const to = positions.get(edge.target);
    if (!from || !to) continue;
    const start = { x: from.x + w, y: from.y + h / 2 };
    const end = { x: to.x, y: to.y + h / 2 };
    if (to.depth === from.depth + 1) {
      const x = lane(from.depth);
      routes.set(
        edge.id,
        simplify([start, { x, y: start.y }, { x, y: end.y }, end]),
      );
      continue;
    }
    // Columns the horizontal run crosses: between the two forwards, or from
    // the target's column to the source's backwards.
    const crossed: number[] = [];
    const [first, last] =
      to.depth > from.depth
        ? [from.depth + 1, to.depth - 1]
        : [to.depth, from.depth];
    for (let c = first; c <= last; c++) crossed.push(c);
    const y = freeRow(
      crossed.map(c => columns.get(c) ?? []),
      Math.min(start.y, end.y),
      Math.max(start.y, end.y),
    );
    const x1 = lane(from.depth);
    const x2 = lane(to.depth - 1);
    routes.set(
      edge.id,
      simplify([
        start,
        { x: x1, y: start.y },
        { x: x1, y },
        { x: x2, y },
        { x: x2, y: end.y },
        end,
      ]),
    );
  }
  return routes;
}

function columnStepOf(layout: ResourceGraphLayout): number {
  if (layout.columnGap !== undefined)
    return layout.nodeWidth + layout.columnGap;
  for (const place of layout.positions.values())
    if (place.depth > 0) return place.x / place.depth;
  return layout.nodeWidth + 72;
}

/**
 * A y that no interval of the given columns covers, as close as possible to
 * the range [low, high] (inside it when any free y is): the middle of the
 * nearest gap, so the edge runs centred between two rows.
 */
export function freeRow(
  columns: ReadonlyArray<ReadonlyArray<[number, number]>>,
  low: number,
  high: number,
): number {
  const merged: Array<[number, number]> = [];
  for (const interval of columns.flat().sort((a, b) => a[0] - b[0])) {
    const top = merged[merged.length - 1];
    if (top && interval[0] <= top[1]) top[1] = Math.max(top[1], interval[1]);
    else merged.push([interval[0], interval[1]]);
  }
  if (merged.length === 0) return (low + high) / 2;
  // Free spans: above the first interval, between two, below the last.
  const spans: Array<[number, number]> = [[-Infinity, merged[0][0]]];
  for (let i = 1; i < merged.length; i++)
    spans.push([merged[i - 1][1], merged[i][0]]);
  spans.push([merged[merged.length - 1][1], Infinity]);
  let best: { y: number; distance: number } | undefined;
  for (const [top, bottom] of spans) {
    const y = pointIn(top, bottom, low, high);
    const distance = Math.max(low - y, y - high, 0);
    if (!best || distance < best.distance) best = { y, distance };
  }
  return best!.y;
}

/** Where in the free span [top, bottom] to run, nearest the range [low, high]. */
function pointIn(top: number, bottom: number, low: number, high: number) {
  // A row gap: its middle. A larger span: keep clear of its boxes.
  if (bottom - top <= 40) return (top + bottom) / 2;
  const usableTop = top + 8;
  const usableBottom = bottom - 8;
  const from = Math.max(usableTop, low);
  const to = Math.min(usableBottom, high);
  if (from <= to) return (from + to) / 2;
  return usableBottom < low ? usableBottom : usableTop;
}

/** Drops points that add no turn (a zero-length or straight-through segment). */
function simplify(points: Point[]): Point[] {
  const out: Point[] = [];
  for (const point of points) {
    const last = out[out.length - 1];
    if (last && last.x === point.x && last.y === point.y) continue;
    const before = out[out.length - 2];
    if (
      before &&
      last &&
      ((before.x === last.x && last.x === point.x) ||
        (before.y === last.y && last.y === point.y))
    ) {
      out[out.length - 1] = point;
      continue;
    }
    out.push(point);
  }
  return out;
}
