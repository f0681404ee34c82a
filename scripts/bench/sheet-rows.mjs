// The rows of a workbook's first sheet, for checks of large exports (scripts/bench.mjs, test/e2e/faults/memory.test.ts).
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';

/**
 * Counts the rows of xl/worksheets/sheet1.xml as it inflates (a million rows
 * are 700 MB of XML) and gives the last one's XML; the zip's central
 * directory says where the entry starts. Node only: no zip library.
 */
export async function sheetRows(file) {
  const zip = readFileSync(file);
  const end = zip.lastIndexOf(Buffer.from('PK\x05\x06', 'latin1'));
  let at = zip.readUInt32LE(end + 16);
  for (let entry = 0; entry < zip.readUInt16LE(end + 10); entry++) {
    const nameLength = zip.readUInt16LE(at + 28);
    if (zip.toString('utf8', at + 46, at + 46 + nameLength) === 'xl/worksheets/sheet1.xml') {
      const local = zip.readUInt32LE(at + 42);
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      return countRows(Readable.from([zip.subarray(start, start + zip.readUInt32LE(at + 20))]).pipe(createInflateRaw()));
    }
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  throw new Error(`${file} has no first sheet`);
}

async function countRows(xml) {
  let rows = 0;
  let last = '';
  let rest = '';
  for await (const chunk of xml) {
    const text = rest + chunk.toString('latin1');
    const close = text.lastIndexOf('</row>');
    if (close === -1) {
      rest = text;
      continue;
    }
    rows += text.slice(0, close).split('</row>').length;
    last = text.slice(text.lastIndexOf('<row ', close), close);
    rest = text.slice(close + '</row>'.length);
  }
  return { rows, last };
}
