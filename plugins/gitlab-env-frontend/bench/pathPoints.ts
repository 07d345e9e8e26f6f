import { Point } from '../src/layout';

const STEP = 2;

/**
 * Points along an SVG path of absolute M, L, Q and C commands (what React
 * Flow's path helpers and RoutedEdge write), about every 2 px.
 */
export function roundedPathPoints(path: string): Point[] {
  const points: Point[] = [];
  let at: Point = { x: 0, y: 0 };
  for (const [, command, args] of path.matchAll(/([MLQC])([^MLQC]*)/g)) {
    const n = (args.match(/-?\d*\.?\d+(?:e-?\d+)?/g) ?? []).map(Number);
    if (command === 'M') {
      at = { x: n[0], y: n[1] };
      points.push(at);
      continue;
    }
    const end = { x: n[n.length - 2], y: n[n.length - 1] };
    // L has no control point, Q one, C two: the pairs before the end.
    const controls: Point[] = [];
    for (let i = 0; i + 2 < n.length; i += 2)
      controls.push({ x: n[i], y: n[i + 1] });
    const curve = [at, ...controls, end];
    const length = curve
      .slice(1)
      .reduce(
        (sum, p, i) => sum + Math.hypot(p.x - curve[i].x, p.y - curve[i].y),
        0,
      );
    const steps = Math.max(1, Math.ceil(length / STEP));
    for (let s = 1; s <= steps; s++) points.push(bezierAt(curve, s / steps));
    at = end;
  }
  return points;
}

/** De Casteljau: the point at t of a Bézier curve of any degree. */
function bezierAt(curve: Point[], t: number): Point {
  if (curve.length === 1) return curve[0];
  const next: Point[] = [];
  for (let i = 1; i < curve.length; i++) {
    next.push({
      x: curve[i - 1].x + (curve[i].x - curve[i - 1].x) * t,
      y: curve[i - 1].y + (curve[i].y - curve[i - 1].y) * t,
    });
  }
  return bezierAt(next, t);
}
