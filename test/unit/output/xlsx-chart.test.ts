import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { columnLetters } from '../../../src/lib/column-letters.js';
import { chartXml, dataBarXml, decorateWorkbook, drawingXml, type BarChart } from '../../../src/output/xlsx-chart.js';

const CHART: BarChart = {
  sheet: 1, sheetName: "Ana's courses", title: 'Completion <by> course', categoryColumn: 2, valueColumn: 5, seriesName: 'mean_completion',
  categories: ['Yoga & Pilates', 'Dança'], values: [75.5, null], max: 100,
  anchor: { from: { column: 1, row: 4 }, to: { column: 6, row: 20 } },
};

describe('columnLetters', () => {
  it.each([[1, 'A'], [2, 'B'], [26, 'Z'], [27, 'AA'], [52, 'AZ'], [53, 'BA'], [702, 'ZZ'], [703, 'AAA']])('%d is %s', (column, letters) => {
    expect(columnLetters(column)).toBe(letters);
  });
});

describe('chartXml', () => {
  const xml = chartXml(CHART);
  it('reads its categories and values from the sheet, the name quoted and its quote doubled', () => {
    expect(xml).toContain('<c:f>&#39;Ana&#39;&#39;s courses&#39;!$B$2:$B$3</c:f>');
    expect(xml).toContain('<c:f>&#39;Ana&#39;&#39;s courses&#39;!$E$2:$E$3</c:f>');
  });
  it('caches what it draws, escaped; a missing value is a gap, not a zero', () => {
    expect(xml).toContain('<c:pt idx="0"><c:v>Yoga &#38; Pilates</c:v></c:pt><c:pt idx="1"><c:v>Dança</c:v></c:pt>');
    expect(xml).toContain('<c:ptCount val="2"/><c:pt idx="0"><c:v>75.5</c:v></c:pt></c:numCache>');
    expect(xml).toContain('<a:t>Completion &#60;by&#62; course</a:t>');
  });
  it('horizontal bars, the first category on top, from 0 to the maximum', () => {
    expect(xml).toContain('<c:barDir val="bar"/>');
    expect(xml).toContain('<c:orientation val="maxMin"/>');
    expect(xml).toContain('<c:max val="100"/><c:min val="0"/>');
    expect(chartXml({ ...CHART, max: undefined })).not.toContain('<c:max');
  });
});

describe('drawingXml', () => {
  it('anchors the chart to the cells given', () => {
    expect(drawingXml(CHART)).toContain('<xdr:from><xdr:col>1</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>4</xdr:row>');
    expect(drawingXml(CHART)).toContain('<xdr:to><xdr:col>6</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>20</xdr:row>');
  });
});

describe('decorateWorkbook', () => {
  const SHEET = '<worksheet xmlns="x"><sheetData/><pageMargins/><pageSetup/></worksheet>';
  async function workbook(rels?: string): Promise<Uint8Array> {
    const zip = new JSZip();
    const flat = { createFolders: false };
    zip.file('[Content_Types].xml', '<Types></Types>', flat);
    zip.file('xl/worksheets/sheet1.xml', SHEET, flat);
    zip.file('xl/worksheets/sheet2.xml', SHEET, flat);
    if (rels) zip.file('xl/worksheets/_rels/sheet1.xml.rels', rels, flat);
    return zip.generateAsync({ type: 'uint8array' });
  }
  const read = async (file: Uint8Array, path: string) => (await JSZip.loadAsync(file)).file(path)?.async('string');

  it('adds the chart, its drawing, their relationships and content types; the drawing after the page setup', async () => {
    const file = await decorateWorkbook(await workbook(), { chart: CHART });
    expect(await read(file, 'xl/worksheets/sheet1.xml')).toMatch(/<pageSetup\/><drawing [^>]*r:id="rIdChart1"\/><\/worksheet>$/);
    expect(await read(file, 'xl/worksheets/_rels/sheet1.xml.rels')).toContain('Id="rIdChart1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing" Target="../drawings/drawing1.xml"');
    expect(await read(file, 'xl/drawings/_rels/drawing1.xml.rels')).toContain('Target="../charts/chart1.xml"');
    expect(await read(file, 'xl/charts/chart1.xml')).toBe(chartXml(CHART));
    const types = await read(file, '[Content_Types].xml');
    expect(types).toContain('<Override PartName="/xl/charts/chart1.xml" ContentType="application/vnd.openxmlformats-officedocument.drawingml.chart+xml"/>');
    expect(types).toContain('<Override PartName="/xl/drawings/drawing1.xml" ContentType="application/vnd.openxmlformats-officedocument.drawing+xml"/>');
    // No folder entries: exceljs writes none either.
    expect(Object.keys((await JSZip.loadAsync(file)).files).filter((name) => name.endsWith('/'))).toEqual([]);
  });

  it('keeps the sheet\'s own relationships (hyperlinks)', async () => {
    const file = await decorateWorkbook(await workbook('<Relationships><Relationship Id="rId1"/></Relationships>'), { chart: CHART });
    expect(await read(file, 'xl/worksheets/_rels/sheet1.xml.rels')).toMatch(/^<Relationships><Relationship Id="rId1"\/><Relationship Id="rIdChart1" /);
  });

  it('puts a data bar rule before the page margins, on its own sheet', async () => {
    const file = await decorateWorkbook(await workbook(), { dataBars: [{ sheet: 2, ref: 'L2:L9', max: 100 }] });
    expect(await read(file, 'xl/worksheets/sheet2.xml')).toBe(SHEET.replace('<pageMargins/>', `${dataBarXml({ sheet: 2, ref: 'L2:L9', max: 100 })}<pageMargins/>`));
    expect(await read(file, 'xl/worksheets/sheet1.xml')).toBe(SHEET);
    expect(dataBarXml({ sheet: 2, ref: 'L2:L9', max: 100 })).toBe('<conditionalFormatting sqref="L2:L9"><cfRule type="dataBar" priority="1"><dataBar><cfvo type="num" val="0"/><cfvo type="num" val="100"/><color rgb="FF638EC6"/></dataBar></cfRule></conditionalFormatting>');
  });

  it('refuses a workbook without the sheet to draw on', async () => {
    await expect(decorateWorkbook(await workbook(), { chart: { ...CHART, sheet: 3 } })).rejects.toThrow('the workbook has no xl/worksheets/sheet3.xml');
  });
});
