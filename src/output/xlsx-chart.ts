/**
 * A bar chart and data bars in a workbook (report engaged-courses --chart):
 * exceljs writes no charts, and its streaming writer leaves a data bar's
 * Excel 2010 extension half written (an empty x14:id). So its finished file
 * is opened (jszip, which exceljs itself depends on) and given what Excel
 * itself writes: a data bar rule of ECMA-376 on the sheet, and the chart
 * (xl/charts/chart1.xml, DrawingML with cached values, so that a viewer
 * draws it without recalculating), a drawing that anchors it on the sheet,
 * the relationships between sheet, drawing and chart, and their content types.
 *
 * Built into dist/xlsx.cjs with the rest of the writer (loaded for xlsx only).
 */
import JSZip from 'jszip';
import { columnLetters } from '../lib/column-letters.js';

export interface BarChart {
  /** The sheet the chart stands on and reads (1 for the first). */
  sheet: number;
  /** The sheet's name, for the formulas of the series. */
  sheetName: string;
  title: string;
  /** 1-based columns: the categories (names) and the values, read from row 2 to row `rows` + 1. */
  categoryColumn: number;
  valueColumn: number;
  /** The value column's header: the series' name. */
  seriesName: string;
  categories: readonly string[];
  values: ReadonlyArray<number | null>;
  /** The value axis runs from 0 to this (100 for a percent). */
  max?: number;
  /** Where the chart stands, in 0-based columns and rows of the sheet: from the top left of one cell to the top left of another. */
  anchor: { from: { column: number; row: number }; to: { column: number; row: number } };
}

/** Data bars on the cells `ref` (`L2:L239`) of a sheet, from 0 to `max`. */
export interface DataBar {
  sheet: number;
  ref: string;
  max: number;
}

/** The chart's bars' colour, RGB: what a test looks for in the rendered page. */
export const BAR_COLOUR = '2E75B6';
/** The data bars' colour (ARGB), Excel's own blue. */
const DATA_BAR_COLOUR = 'FF638EC6';

const CHART_TYPE = 'application/vnd.openxmlformats-officedocument.drawingml.chart+xml';
const DRAWING_TYPE = 'application/vnd.openxmlformats-officedocument.drawing+xml';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

const escape = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** `'courses'!$B$2:$B$9`: a sheet name is always quoted, with its quotes doubled. */
function range(chart: BarChart, column: number): string {
  const letters = columnLetters(column);
  return `'${chart.sheetName.replace(/'/g, "''")}'!$${letters}$2:$${letters}$${chart.categories.length + 1}`;
}

const text = (value: string) => `<c:tx><c:rich><a:bodyPr/><a:p><a:pPr><a:defRPr b="1" sz="1400"/></a:pPr><a:r><a:rPr lang="en-US" b="1" sz="1400"/><a:t>${escape(value)}</a:t></a:r></a:p></c:rich></c:tx>`;

/** The chart part: horizontal bars, the first category at the top (the report's best course first). */
export function chartXml(chart: BarChart): string {
  const points = <T>(items: readonly T[], cell: (item: T) => string | undefined) => items
    .map((item, index) => {
      const value = cell(item);
      return value === undefined ? '' : `<c:pt idx="${index}"><c:v>${value}</c:v></c:pt>`;
    }).join('');
  const count = `<c:ptCount val="${chart.categories.length}"/>`;
  const scaling = chart.max === undefined ? '<c:scaling><c:orientation val="minMax"/></c:scaling>'
    : `<c:scaling><c:orientation val="minMax"/><c:max val="${chart.max}"/><c:min val="0"/></c:scaling>`;
  return '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    + `<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="${REL}">`
    + '<c:roundedCorners val="0"/>'
    + `<c:chart><c:title>${text(chart.title)}<c:overlay val="0"/></c:title><c:autoTitleDeleted val="0"/><c:plotArea><c:layout/>`
    + '<c:barChart><c:barDir val="bar"/><c:grouping val="clustered"/><c:varyColors val="0"/>'
    + `<c:ser><c:idx val="0"/><c:order val="0"/><c:tx><c:v>${escape(chart.seriesName)}</c:v></c:tx>`
    + `<c:spPr><a:solidFill><a:srgbClr val="${BAR_COLOUR}"/></a:solidFill></c:spPr><c:invertIfNegative val="0"/>`
    + '<c:dLbls><c:numFmt formatCode="0.0" sourceLinked="0"/><c:spPr><a:noFill/><a:ln><a:noFill/></a:ln></c:spPr>'
    + '<c:showLegendKey val="0"/><c:showVal val="1"/><c:showCatName val="0"/><c:showSerName val="0"/><c:showPercent val="0"/><c:showBubbleSize val="0"/></c:dLbls>'
    + `<c:cat><c:strRef><c:f>${escape(range(chart, chart.categoryColumn))}</c:f><c:strCache>${count}${points(chart.categories, escape)}</c:strCache></c:strRef></c:cat>`
    + `<c:val><c:numRef><c:f>${escape(range(chart, chart.valueColumn))}</c:f><c:numCache><c:formatCode>General</c:formatCode>${count}`
    + `${points(chart.values, (value) => (value === null ? undefined : String(value)))}</c:numCache></c:numRef></c:val></c:ser>`
    + '<c:gapWidth val="60"/><c:axId val="1001"/><c:axId val="1002"/></c:barChart>'
    // Bars run down from the top: the category axis is reversed, and the value axis then crosses at its end.
    + '<c:catAx><c:axId val="1001"/><c:scaling><c:orientation val="maxMin"/></c:scaling><c:delete val="0"/><c:axPos val="l"/>'
    + '<c:numFmt formatCode="General" sourceLinked="0"/><c:majorTickMark val="none"/><c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/>'
    + '<c:crossAx val="1002"/><c:crosses val="autoZero"/><c:auto val="1"/><c:lblAlgn val="ctr"/><c:lblOffset val="100"/><c:noMultiLvlLbl val="0"/></c:catAx>'
    + `<c:valAx><c:axId val="1002"/>${scaling}<c:delete val="0"/><c:axPos val="t"/><c:majorGridlines/>`
    + '<c:numFmt formatCode="General" sourceLinked="0"/><c:majorTickMark val="out"/><c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/>'
    + '<c:crossAx val="1001"/><c:crosses val="max"/><c:crossBetween val="between"/></c:valAx>'
    + '</c:plotArea><c:plotVisOnly val="1"/><c:dispBlanksAs val="gap"/></c:chart></c:chartSpace>';
}

/** The drawing: the chart anchored to the cells of `anchor`. */
export function drawingXml({ anchor }: BarChart): string {
  const cell = ({ column, row }: { column: number; row: number }) => `<xdr:col>${column}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${row}</xdr:row><xdr:rowOff>0</xdr:rowOff>`;
  return '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    + `<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">`
    + `<xdr:twoCellAnchor editAs="oneCell"><xdr:from>${cell(anchor.from)}</xdr:from><xdr:to>${cell(anchor.to)}</xdr:to>`
    + '<xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="2" name="Chart 1"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr>'
    + '<xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm>'
    + '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart">'
    + `<c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:r="${REL}" r:id="rId1"/>`
    + '</a:graphicData></a:graphic></xdr:graphicFrame><xdr:clientData/></xdr:twoCellAnchor></xdr:wsDr>';
}

const relationships = (items: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items}</Relationships>`;

/** The data bar rule (ECMA-376 §18.3.1.28), which Excel and LibreOffice both draw. */
export function dataBarXml({ ref, max }: DataBar): string {
  return `<conditionalFormatting sqref="${ref}"><cfRule type="dataBar" priority="1"><dataBar>`
    + `<cfvo type="num" val="0"/><cfvo type="num" val="${max}"/><color rgb="${DATA_BAR_COLOUR}"/></dataBar></cfRule></conditionalFormatting>`;
}

/** `xml` with `part` inserted before the first element `follows` names (or before the end of the sheet). */
function insertBefore(xml: string, follows: string, part: string): string {
  const at = new RegExp(`<(?:${follows})\\b|</worksheet>`).exec(xml)?.index ?? -1;
  if (at < 0) throw new Error('a sheet of the workbook has no end: nothing can be added to it');
  return `${xml.slice(0, at)}${part}${xml.slice(at)}`;
}

// What follows each part in a sheet, in the order of ECMA-376 §18.3.1.99.
const AFTER_CONDITIONAL_FORMATTING = 'dataValidations|hyperlinks|printOptions|pageMargins|pageSetup|headerFooter|rowBreaks|colBreaks|customProperties|cellWatches|ignoredErrors|smartTags|drawing|legacyDrawing|legacyDrawingHF|picture|oleObjects|controls|webPublishItems|tableParts|extLst';
const AFTER_DRAWING = 'legacyDrawing|legacyDrawingHF|picture|oleObjects|controls|webPublishItems|tableParts|extLst';

const ZIP_FILE = { createFolders: false };

/**
 * The workbook `file` with its data bars and chart added. Throws when the
 * file lacks what exceljs always writes (the sheet, the content types): a
 * workbook with a chart that no viewer draws is worse than an error.
 */
export async function decorateWorkbook(file: Uint8Array, { chart, dataBars = [] }: { chart?: BarChart; dataBars?: readonly DataBar[] }): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(file);
  const sheetXml = async (sheet: number) => {
    const path = `xl/worksheets/sheet${sheet}.xml`;
    const xml = await zip.file(path)?.async('string');
    if (xml === undefined) throw new Error(`the workbook has no ${path}`);
    return { path, xml };
  };
  for (const bar of dataBars) {
    const { path, xml } = await sheetXml(bar.sheet);
    zip.file(path, insertBefore(xml, AFTER_CONDITIONAL_FORMATTING, dataBarXml(bar)), ZIP_FILE);
  }
  if (chart) await addChart(zip, chart, await sheetXml(chart.sheet));
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

async function addChart(zip: JSZip, chart: BarChart, { path: sheetPath, xml: sheet }: { path: string; xml: string }): Promise<void> {
  const relsPath = `xl/worksheets/_rels/sheet${chart.sheet}.xml.rels`;
  const [types, rels] = await Promise.all([zip.file('[Content_Types].xml')?.async('string'), zip.file(relsPath)?.async('string')]);
  if (types === undefined) throw new Error('the workbook has no [Content_Types].xml');
  // A relationship id the sheet's own relationships (hyperlinks) do not use.
  const drawingId = `rIdChart${chart.sheet}`;
  const drawingRel = `<Relationship Id="${drawingId}" Type="${REL}/drawing" Target="../drawings/drawing1.xml"/>`;
  zip.file(relsPath, rels === undefined ? relationships(drawingRel) : rels.replace('</Relationships>', `${drawingRel}</Relationships>`), ZIP_FILE);
  zip.file(sheetPath, insertBefore(sheet, AFTER_DRAWING, `<drawing xmlns:r="${REL}" r:id="${drawingId}"/>`), ZIP_FILE);
  zip.file('xl/drawings/drawing1.xml', drawingXml(chart), ZIP_FILE);
  zip.file('xl/drawings/_rels/drawing1.xml.rels', relationships(`<Relationship Id="rId1" Type="${REL}/chart" Target="../charts/chart1.xml"/>`), ZIP_FILE);
  zip.file('xl/charts/chart1.xml', chartXml(chart), ZIP_FILE);
  zip.file('[Content_Types].xml', types.replace('</Types>',
    `<Override PartName="/xl/drawings/drawing1.xml" ContentType="${DRAWING_TYPE}"/><Override PartName="/xl/charts/chart1.xml" ContentType="${CHART_TYPE}"/></Types>`), ZIP_FILE);
}
