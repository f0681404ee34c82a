/** Workbooks as a spreadsheet saves them, built with exceljs for the tests of xlsx input. */
import ExcelJS from 'exceljs';

/** A cell's value, or its value and number format (a date's, a mask's). */
export type Cell = ExcelJS.CellValue | { value: ExcelJS.CellValue; numFmt: string };

/** A workbook of sheets in tab order, each given as rows by their number in the sheet (rows not given stay empty). */
export async function workbook(sheets: Record<string, Record<number, Cell[]>>): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const sheet = book.addWorksheet(name);
    for (const [number, cells] of Object.entries(rows)) {
      cells.forEach((cell, index) => {
        const target = sheet.getCell(Number(number), index + 1);
        if (cell !== null && typeof cell === 'object' && 'numFmt' in cell) {
          target.value = cell.value;
          target.numFmt = cell.numFmt;
        } else target.value = cell;
      });
    }
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}
