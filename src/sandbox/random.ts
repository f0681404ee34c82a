import { ascii } from './strings.js';

/**
 * mulberry32: tiny and fast, and its whole state is one uint32, so a stream
 * can be persisted and resumed (the store does that for ids it mints later).
 */
export class Random {
  constructor(private current: number) {}

  get state(): number {
    return this.current >>> 0;
  }

  uint32(): number {
    let t = (this.current = (this.current + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new RangeError('cannot pick from an empty list');
    return item;
  }

  /** Index drawn with the given relative weights. */
  weighted(weights: readonly number[]): number {
    let total = 0;
    for (const weight of weights) total += weight;
    let target = this.next() * total;
    for (let index = 0; index < weights.length; index++) {
      target -= weights[index] ?? 0;
      if (target < 0) return index;
    }
    return weights.length - 1;
  }

  hex(bytes: number): string {
    for (let i = 0; i < bytes; i += 4) ascii.hex(this.uint32(), 8);
    return ascii.done().slice(0, bytes * 2);
  }

  /** A version-4-shaped UUID. */
  uuid(): string {
    const [a, b, c, d] = [this.uint32(), this.uint32(), this.uint32(), this.uint32()];
    return ascii
      .hex(a, 8)
      .text('-')
      .hex(b >>> 16, 4)
      .text('-')
      .hex((b & 0x0fff) | 0x4000, 4)
      .text('-')
      .hex(((c >>> 16) & 0x3fff) | 0x8000, 4)
      .text('-')
      .hex(c, 4)
      .hex(d, 8)
      .done();
  }
}

/** Derives independent streams from one seed (FNV-1a of "seed:label"). */
export function streamSeed(seed: number, label: string): number {
  let hash = 0x811c9dc5;
  const text = `${seed}:${label}`;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
