/**
 * The one sanitizer for server text on its way to a terminal (contract §1.1):
 * error messages, prompts, notices, table cells, and csv or json printed to a
 * terminal. A hostile or broken server
 * must not be able to move the cursor, rewrite what was printed, set the
 * clipboard (OSC 52), or reorder what the user reads.
 */

// Whole escape sequences go: CSI (ESC [ … final), OSC (ESC ] … BEL or ST), and their 8-bit forms, and other ESC pairs.
// eslint-disable-next-line no-control-regex
const SEQUENCES = /\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[@-~]/g;
// Bidi embeddings, overrides and isolates (U+202A–E, U+2066–9) and zero-width characters: invisible, but they reorder or hide text.
const INVISIBLE = /[\u202a-\u202e\u2066-\u2069\u200b-\u200d\u2060\ufeff]/g;
// What is left of C0 (but tab and newline), DEL and C1: shown as U+FFFD, so that the user sees something was there.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Server text made harmless for a terminal; newlines are kept (multi-line messages), CR is not. */
export function printable(text: string): string {
  return text.replace(SEQUENCES, '').replace(INVISIBLE, '').replace(CONTROL, '\uFFFD');
}

/** The same on one line: a prompt, a table cell. */
export function printableLine(text: string): string {
  return printable(text.replace(/\r?\n|\t/g, ' '));
}

/** Whether text holds anything printable() would change (a URL that must be refused, not repaired). */
export function hasControls(text: string): boolean {
  return printable(text) !== text;
}

// What JSON.stringify leaves raw in a string although a terminal acts on it: DEL and C1 (U+009B is a CSI,
// U+009D an OSC), bidi controls, zero-width characters, the line and paragraph separators.
const JSON_RAW = /[\u007f-\u009f\u200b-\u200d\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;

/**
 * JSON text for a terminal: those characters as \uXXXX escapes, so the text
 * still parses to the same value (C0 and ESC are escaped by JSON.stringify
 * already). Outside strings JSON holds none of them.
 */
export function printableJson(text: string): string {
  return text.replace(JSON_RAW, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
