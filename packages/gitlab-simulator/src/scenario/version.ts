/** GitLab version strings (`17.11.1-ee`, `16.4.0`) compared by major and minor. */

function majorMinor(version: string): [number, number] {
  const match = version.match(/^v?(\d+)\.(\d+)/);
  return match ? [Number(match[1]), Number(match[2])] : [0, 0];
}

/** Is `version` at least `floor` (`major.minor`)? */
export function atLeast(version: string, floor: string): boolean {
  const [major, minor] = majorMinor(version);
  const [floorMajor, floorMinor] = majorMinor(floor);
  return major > floorMajor || (major === floorMajor && minor >= floorMinor);
}
