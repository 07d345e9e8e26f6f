/** The p-th percentile of ascending `sorted` values (nearest rank). */
export function percentile(sorted: number[], p: number) {
  return sorted[
    Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))
  ];
}
