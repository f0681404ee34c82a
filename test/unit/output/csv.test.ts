import { describe, expect, it } from 'vitest';
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
