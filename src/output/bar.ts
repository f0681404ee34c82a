/**
 * A horizontal bar in a table cell (report engaged-courses --group-by
 * course): eighth blocks draw its end to an eighth of a character, `#` on a
 * terminal that may not draw Unicode (TERM=dumb).
 */

/** ▏▎▍▌▋▊▉: one to seven eighths of a full block. */
const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'] as const;
const FULL = '█';
const ASCII_FULL = '#';

/**
 * `fraction` of `width` characters, drawn; an empty string for nothing to
 * draw (no value, zero), and never wider than `width` (a fraction above 1 is full).
 */
export function drawBar(fraction: number, width: number, { ascii = false }: { ascii?: boolean } = {}): string {
  if (!Number.isFinite(fraction) || fraction <= 0 || width <= 0) return '';
  const eighths = Math.round(Math.min(1, fraction) * width * 8);
  // ASCII has no partial block: a half character or more counts as one.
  if (ascii) return ASCII_FULL.repeat(Math.round(eighths / 8));
  return FULL.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8];
}
