/**
 * The duplicate check of a bulk file without holding its keys: each key is
 * kept as two 32-bit hashes and the line that had it first, in typed arrays
 * (12 bytes a slot, at most half full), so a 1,000,000-row file costs about
 * 24 MB here where a Map of its key strings cost over 100 MB. Two keys that
 * differ share both hashes once in about 2^64 / n² files (n rows: one in
 * 10^7 for a million rows); such a row would be reported as a duplicate,
 * never applied twice.
 */
export class SeenKeys {
  private first = new Uint32Array(0);
  private second = new Uint32Array(0);
  /** The line plus one; 0: an empty slot. */
  private lines = new Uint32Array(0);
  private count = 0;

  constructor(capacity = 1024) {
    this.allocate(capacity);
  }

  /** The line that had `key` first, or undefined when it is new (it is then kept with `line`). */
  firstLine(key: string, line: number): number | undefined {
    const [a, b] = hashes(key);
    const slot = this.find(a, b);
    const seen = this.lines[slot] as number;
    if (seen !== 0) return seen - 1;
    this.put(slot, a, b, line + 1);
    if (this.count * 2 > this.lines.length) this.grow();
    return undefined;
  }

  get size(): number {
    return this.count;
  }

  /** Slots in the table (a power of two, at least twice the keys). */
  get capacity(): number {
    return this.lines.length;
  }

  /** The slot holding (a, b), or the empty one where it would go (linear probing from the first lane). */
  private find(a: number, b: number): number {
    const mask = this.lines.length - 1;
    for (let slot = a & mask; ; slot = (slot + 1) & mask) {
      if (this.lines[slot] === 0 || (this.first[slot] === a && this.second[slot] === b)) return slot;
    }
  }

  private put(slot: number, a: number, b: number, stored: number): void {
    this.first[slot] = a;
    this.second[slot] = b;
    this.lines[slot] = stored;
    this.count++;
  }

  private allocate(capacity: number): void {
    let size = 16;
    while (size < capacity) size *= 2;
    this.first = new Uint32Array(size);
    this.second = new Uint32Array(size);
    this.lines = new Uint32Array(size);
    this.count = 0;
  }

  private grow(): void {
    const { first, second, lines } = this;
    this.allocate(lines.length * 2);
    lines.forEach((stored, slot) => {
      if (stored === 0) return;
      const a = first[slot] as number;
      const b = second[slot] as number;
      this.put(this.find(a, b), a, b, stored);
    });
  }
}

/** Two 32-bit hashes of a string's UTF-16 units (cyrb53's two lanes, kept apart: 64 bits). */
export function hashes(text: string): [number, number] {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ unit, 2654435761);
    h2 = Math.imul(h2 ^ unit, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return [h1 >>> 0, h2 >>> 0];
}
