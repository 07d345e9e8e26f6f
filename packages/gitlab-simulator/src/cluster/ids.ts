import { createHash } from 'crypto';

/**
 * Deterministic identifiers: the same scenario always expands to the same
 * uids, names and addresses, so screenshots, snapshots and bug reports are
 * reproducible.
 */

// One SHA-256 per identifier: cheap in native code, and (unlike a pure-JS hash)
// just as fast inside jest's sandbox, where tight integer loops run slowly.
function digest(seed: string): Buffer {
  return createHash('sha256').update(seed).digest();
}

/** A v4-shaped UUID derived from `seed`. */
export function stableUid(seed: string): string {
  const hex = digest(seed).toString('hex');
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    `4${hex.slice(13, 16)}`,
    `${((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}`,
    hex.slice(20, 32),
  ].join('-');
}

// The alphabet the Kubernetes name generators use (no vowels, no confusables).
const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** A random-looking name suffix like kube-controller-manager writes (`7d9f8b6c4`). */
export function stableSuffix(seed: string, length: number): string {
  const bytes = digest(seed);
  let out = '';
  for (let i = 0; i < length; i++) {
    out += NAME_ALPHABET[bytes[i % bytes.length] % NAME_ALPHABET.length];
  }
  return out;
}

/** A 16-hex-digit suffix, as event names carry. */
export function stableHex(seed: string, length = 16): string {
  return digest(seed).toString('hex').slice(0, length);
}

/** An address in `prefix` (e.g. `10.42`) derived from `seed`. */
export function stableIp(prefix: string, seed: string): string {
  const bytes = digest(seed);
  return `${prefix}.${bytes[0]}.${(bytes[1] % 253) + 1}`;
}

/** A number in [0, modulo) derived from `seed`. */
export function stableNumber(seed: string, modulo: number): number {
  return digest(seed).readUInt32BE(0) % modulo;
}

/** Parses `90s`, `20m`, `5h`, `3d` into milliseconds. */
export function parseAge(age: string | undefined): number | undefined {
  const match = age?.match(/^(\d+)([smhd])$/);
  if (!match) {
    return undefined;
  }
  const unit = { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3 }[
    match[2] as 's' | 'm' | 'h' | 'd'
  ];
  return Number(match[1]) * unit;
}

/** Kubernetes timestamps have second precision. */
export function isoSeconds(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}
