import * as React from 'react';
import { memo } from 'react';
import { BaseEdge, EdgeProps } from '@xyflow/react';
import { Point } from '../../layout';

export interface RoutedEdgeData extends Record<string, unknown> {
  /** The route around the boxes (routeEdges), from source to target. */
  points: Point[];
}

const CORNER = 6;

/** An SVG path through the points, its corners rounded. */
export function roundedPath(points: readonly Point[]): string {
  if (points.length === 0) return '';
  let path = `M${points[0].x},${points[0].y}`;
  for (let i = 1; i < points.length - 1; i++) {
    const [before, at, after] = [points[i - 1], points[i], points[i + 1]];
    const r = Math.min(
      CORNER,
      Math.hypot(at.x - before.x, at.y - before.y) / 2,
      Math.hypot(after.x - at.x, after.y - at.y) / 2,
    );
    const inX = at.x - Math.sign(at.x - before.x) * r;
    const inY = at.y - Math.sign(at.y - before.y) * r;
    const outX = at.x + Math.sign(after.x - at.x) * r;
    const outY = at.y + Math.sign(after.y - at.y) * r;
    path += ` L${inX},${inY} Q${at.x},${at.y} ${outX},${outY}`;
  }
  const last = points[points.length - 1];
  return `${path} L${last.x},${last.y}`;
}

/** A relation other than ownership, drawn along its route around the boxes. */
export const RoutedEdge = memo(function RoutedEdgeView({
  data,
  style,
  markerEnd,
  interactionWidth,
}: EdgeProps & { data: RoutedEdgeData }) {
  return (
    <BaseEdge
      path={roundedPath(data.points)}
      style={style}
      markerEnd={markerEnd}
      interactionWidth={interactionWidth}
    />
  );
});
