import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/lib/errors.js';
import { globalOptions } from '../../../src/command-line.js';
import { guardCell } from '../../../src/output/csv.js';
import { joao, maria, render, studentView } from './setup.js';

const HEADER = 'id,name,active,created_at,product.id,product.title\n';
const MARIA = 's1,Maria Souza,1,2024-03-05T14:22:09Z,p1,Yoga\n';
const JOAO = 's2,"João, ""Jô""\nSouza",0,2024-03-06T09:05:00-03:00,p2,Pilates\n';

describe('csv', () => {
  it('prints one record under a header of its scalar fields, flattened, in the API order', async () => {
    const { stdout, stderr } = await render({ output: 'csv' }, (out) => out.one(maria, studentView));
    expect(stdout).toBe(HEADER + MARIA);
    expect(stderr).toBe('');
  });

  it('quotes commas, quotes and newlines (RFC 4180) and keeps accents as UTF-8', async () => {
    const { stdout } = await render({ output: 'csv' }, (out) => out.list([maria, joao], studentView));
    expect(stdout).toBe(HEADER + MARIA + JOAO);
  });

  it('takes the columns from the first record: later extra keys are dropped, missing ones and null are empty', async () => {
    const records = [{ id: 'a', name: 'Ana' }, { id: 'b', extra: 'dropped' }, { id: null, name: 'Caio' }];
    const { stdout } = await render({ output: 'csv' }, (out) => out.list(records, studentView));
    expect(stdout).toBe('id,name\na,Ana\nb,\n,Caio\n');
  });

  it('drops the header with --no-header', async () => {
    const { stdout } = await render({ output: 'csv', header: false }, (out) => out.list([maria, joao], studentView));
    expect(stdout).toBe(MARIA + JOAO);
  });

  it('writes --fields in their order, arrays and objects as JSON text', async () => {
    const fields = ['product.title', 'tags', 'id', 'product'];
    const { stdout } = await render({ output: 'csv', fields }, (out) => out.list([maria, joao], studentView));
    expect(stdout).toBe([
      'product.title,tags,id,product',
      'Yoga,"[""vip"",""early""]",s1,"{""id"":""p1"",""title"":""Yoga""}"',
      'Pilates,[],s2,"{""id"":""p2"",""title"":""Pilates""}"',
      '',
    ].join('\n'));
  });

  it('prints the header alone for an empty list: the --fields, else the view column paths', async () => {
    expect((await render({ output: 'csv', fields: ['id', 'product.title'] }, (out) => out.list([], studentView))).stdout)
      .toBe('id,product.title\n');
    expect((await render({ output: 'csv', fields: ['id'], header: false }, (out) => out.list([], studentView))).stdout).toBe('');
    const bare = await render({ output: 'csv' }, (out) => out.list([], studentView));
    expect(bare).toEqual({ stdout: 'id,name,active,created_at,product.title\n', stderr: '' });
  });

  it('guards cells a spreadsheet would run as formulas, and leaves numbers and phone numbers alone', async () => {
    const record = { a: '=1+1', b: '@SUM(A1)', c: '-2+3', d: -12.5, e: '+55 11 91234-5678', f: '\tx', g: 'a=b' };
    const { stdout } = await render({ output: 'csv' }, (out) => out.one(record, studentView));
    expect(stdout).toBe('a,b,c,d,e,f,g\n\'=1+1,\'@SUM(A1),\'-2+3,-12.5,+55 11 91234-5678,\'\tx,a=b\n');
  });

  it('writes cells untouched with --csv-raw', async () => {
    const { stdout } = await render({ output: 'csv', csvRaw: true }, (out) => out.one({ a: '=1+1', b: '@SUM(A1)' }, studentView));
    expect(stdout).toBe('a,b\n=1+1,@SUM(A1)\n');
  });
});

describe('guardCell', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['+cmd|\' /C calc\'!A0', "'+cmd|' /C calc'!A0"],
    ['-2+3', "'-2+3"],
    ['\tTAB', "'\tTAB"],
    ['\rCR', "'\rCR"],
    ['-', "'-"],
    ['+', "'+"],
    ['+55 11 912', "'+55 11 912"], // 7 digits: too short for a phone number
    ['+1 (555) 123-4567 x', "'+1 (555) 123-4567 x"], // a letter: not a phone number
    ['+55\t11 91234-5678', "'+55\t11 91234-5678"], // only plain spaces between digits
    ['-55 11 91234-5678', "'-55 11 91234-5678"], // a phone number starts with +
  ])('guards %j', (value, guarded) => {
    expect(guardCell(value)).toBe(guarded);
  });

  it.each([
    '', 'plain', 'a=b', ' =1', '12', '-12.5', '+3', '-.5', '1.', '-1e5', '+2.5E-3',
    '+55 11 91234-5678', '+1 (555) 123.4567', '+12345678',
  ])('leaves %j alone', (value) => {
    expect(guardCell(value)).toBe(value);
  });
});

describe('--csv-dialect for spreadsheets', () => {
  // The instant in the zone this test runs in (TZ; worker threads cannot change it), as `YYYY-MM-DD HH:MM:SS`.
  const pad = (n: number) => String(n).padStart(2, '0');
  const at = new Date('2024-03-06T01:49:00Z');
  const local = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())}:00`;
  const row = {
    name: 'João; "Jô"', cpf: '01234567890', phone: '+55 11 91234-5678', ref: '123456789012', small: '42',
    percent: '100.00', score: 8.5, joined: '2024-03-05', at: '2024-03-06T01:49:00.000000Z', wall: '2024-03-06 09:05',
    formula: '=HYPERLINK("x")', version: '1.2.3',
  };

  it('excel: a BOM once, CRLF, dates and times spreadsheets read, fragile digit strings as text formulas', async () => {
    const { stdout } = await render({ output: 'csv', csvDialect: 'excel' }, (out) => out.list([row, row], studentView));
    // `="0123"` holds quotes, so RFC 4180 quotes it: the spreadsheet unquotes, then runs the text formula.
    const line = '"João; ""Jô""","=""01234567890""",+55 11 91234-5678,"=""123456789012""",42,100.00,8.5,2024-03-05,'
      + `${local},2024-03-06 09:05:00,"'=HYPERLINK(""x"")",1.2.3\r\n`;
    expect(stdout).toBe(`\uFEFFname,cpf,phone,ref,small,percent,score,joined,at,wall,formula,version\r\n${line}${line}`);
  });

  it('excel-br: semicolons (a cell holding one is quoted) and decimal commas', async () => {
    const { stdout } = await render({ output: 'csv', csvDialect: 'excel-br', header: false }, (out) => out.one(row, studentView));
    expect(stdout).toBe('\uFEFF"João; ""Jô""";"=""01234567890""";+55 11 91234-5678;"=""123456789012""";42;100,00;8,5;2024-03-05;'
      + `${local};2024-03-06 09:05:00;"'=HYPERLINK(""x"")";1.2.3\r\n`);
  });

  it('--csv-raw keeps the BOM, separator and line ends of the dialect but writes cells as sent', async () => {
    const { stdout } = await render({ output: 'csv', csvDialect: 'excel-br', csvRaw: true }, (out) => out.one({ a: '0123', b: '=1', c: '1.5' }, studentView));
    expect(stdout).toBe('\uFEFFa;b;c\r\n0123;=1;1.5\r\n');
  });

  it('an empty list with a header still starts with the BOM; rfc4180 never writes one', async () => {
    expect((await render({ output: 'csv', csvDialect: 'excel', fields: ['id'] }, (out) => out.list([], studentView))).stdout).toBe('\uFEFFid\r\n');
    expect((await render({ output: 'csv', fields: ['id'] }, (out) => out.one({ id: '0123' }, studentView))).stdout).toBe('id\n0123\n');
  });
});

describe('choosing a dialect', () => {
  const base = { timeout: '30s', retries: '3' };

  it('--csv-dialect alone means csv; with another format it is a usage error', () => {
    expect(globalOptions({ ...base, csvDialect: 'excel' })).toMatchObject({ output: 'csv', csvDialect: 'excel' });
    expect(globalOptions({ ...base })).toMatchObject({ output: 'table', csvDialect: 'rfc4180' });
    expect(() => globalOptions({ ...base, csvDialect: 'excel', json: true })).toThrow(/--csv-dialect applies to csv output, not json/);
    expect(() => globalOptions({ ...base, csvDialect: 'excel', output: 'table' })).toThrow(UsageError);
  });

  it('MEMBERS_CSV_DIALECT applies to csv output only, the flag wins, and a bad value is named', () => {
    const env = { MEMBERS_CSV_DIALECT: 'excel-br' };
    expect(globalOptions({ ...base }, env)).toMatchObject({ output: 'table', csvDialect: 'excel-br' });
    expect(globalOptions({ ...base, csvDialect: 'excel' }, env).csvDialect).toBe('excel');
    expect(() => globalOptions({ ...base }, { MEMBERS_CSV_DIALECT: 'xls' })).toThrow(/MEMBERS_CSV_DIALECT must be one of rfc4180, excel, excel-br \(it is 'xls'\)/);
  });
});
