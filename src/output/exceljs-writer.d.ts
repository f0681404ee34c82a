/**
 * Types for the one exceljs module src/output/xlsx-engine.ts imports (exceljs types only its index): its
 * streaming workbook writer, the index's `stream.xlsx.WorkbookWriter`.
 */
declare module 'exceljs/lib/stream/xlsx/workbook-writer.js' {
  import type { stream } from 'exceljs';
  const WorkbookWriter: typeof stream.xlsx.WorkbookWriter;
  export = WorkbookWriter;
}
