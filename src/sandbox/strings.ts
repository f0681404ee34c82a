/**
 * V8 keeps a concatenation as a rope (a tree of its pieces), several times
 * the size of the text, until something flattens it. Strings kept in records
 * by the hundred thousand are flattened once, when they are made.
 */
export function flat(text: string): string {
  // normalize() returns the flattened string (a no-op otherwise: names are already NFC).
  return text.normalize();
}

/** `Excel Avançado — Vitalício` → `excel-avancado-vitalicio` */
export function slugify(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');

/**
 * Builds short ASCII strings in one reused buffer: the hot formatters
 * (ids, timestamps) get flat strings with no intermediate garbage.
 * Synchronous use only: `done()` returns the text and resets the writer.
 */
class AsciiWriter {
  private readonly buffer = Buffer.alloc(64);
  private length = 0;

  /** Short ASCII text; a plain loop beats a native call at these lengths. */
  text(value: string): this {
    for (let i = 0; i < value.length; i++) this.buffer[this.length++] = value.charCodeAt(i);
    return this;
  }

  /** `value` in decimal, zero-padded to `width` digits. */
  digits(value: number, width: number): this {
    for (let i = width - 1; i >= 0; i--) {
      this.buffer[this.length + i] = 0x30 + (value % 10);
      value = Math.floor(value / 10);
    }
    this.length += width;
    return this;
  }

  /** The low `width` hex digits of `value`. */
  hex(value: number, width: number): this {
    for (let i = width - 1; i >= 0; i--) {
      this.buffer[this.length + i] = HEX_DIGITS[value & 0xf] ?? 0x30;
      value >>>= 4;
    }
    this.length += width;
    return this;
  }

  done(): string {
    const text = this.buffer.toString('latin1', 0, this.length);
    this.length = 0;
    return text;
  }
}

export const ascii = new AsciiWriter();
