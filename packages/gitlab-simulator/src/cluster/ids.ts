/**
 * Deterministic identifiers: the same scenario always expands to the same
 * uids, names and addresses, so screenshots, snapshots and bug reports are
 * reproducible.
 */

/**
 * cyrb128-style string hash: 128 bits, fast in plain JS (creating a crypto
 * Hash per object dominated the expansion of large generated scenarios).
 */
function hash128(seed: string): number[] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < seed.length; i++) {
    const k = seed.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** 32 deterministic bytes for `seed`. */
function digest(seed: string): Buffer {
  const bytes = Buffer.alloc(32);
  [...hash128(seed), ...hash128(`${seed}#`)].forEach((word, i) =>
    bytes.writeUInt32BE(word, i * 4),
  );
  return bytes;
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
