/**
 * Types for the one cli-table3 module src/output/table.ts imports beside its index: its utils, whose
 * `strlen` is how cli-table3 measures a cell (colours left out, the widest line, string-width's columns).
 */
declare module 'cli-table3/src/utils.js' {
  export function strlen(text: string): number;
}
