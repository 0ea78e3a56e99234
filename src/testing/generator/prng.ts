// Seeded randomness for the tenant generator, whose tenants are deterministic: mulberry32 over a
// 32-bit state, seeded per identity so that any identity can be rebuilt from (seed, index) alone —
// the generator never keeps earlier identities in memory.

/** The murmur3 32-bit finaliser: a bijection on 32-bit integers (distinct in ⇒ distinct out). */
export function fmix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** FNV-1a over the UTF-16 code units of a string, finalised: the 32-bit seed of a seed string. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h);
}

/** Eight lower-case hex digits. */
export function hex8(value: number): string {
  return (value >>> 0).toString(16).padStart(8, '0');
}

/** A small seeded PRNG with the draws the generator needs. */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A PRNG for one stream (`salt`) of one item (`index`) of a tenant seeded with `seedHash`. */
  static for(seedHash: number, index: number, salt: number): Prng {
    return new Prng(fmix32(seedHash ^ fmix32(index + Math.imul(salt, 0x9e3779b9))));
  }

  /** mulberry32: uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Uniform integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** Pick by weight: `[[value, weight], …]`. */
  weighted<T>(choices: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of choices) total += w;
    let roll = this.next() * total;
    for (const [value, w] of choices) {
      roll -= w;
      if (roll < 0) return value;
    }
    return choices[choices.length - 1]![0];
  }

  /** `count` distinct items, in pool order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const chosen = new Set<number>();
    const n = Math.min(count, items.length);
    while (chosen.size < n) chosen.add(this.int(items.length));
    return [...chosen].sort((a, b) => a - b).map((i) => items[i] as T);
  }

  /** `length` digits (the first may be 0). */
  digits(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += String(this.int(10));
    return out;
  }

  /** A version-4-shaped UUID (deterministic, not cryptographic). */
  uuid(): string {
    const h = (n: number) => hex8(Math.floor(this.next() * 4294967296)).slice(0, n);
    const variant = '89ab'[this.int(4)];
    return `${h(8)}-${h(4)}-4${h(3)}-${variant}${h(3)}-${h(8)}${h(4)}`;
  }
}
