import { HISTORY_VIEW } from '../../../src/commands/shared/views/history.js';
import { studentSearchView } from '../../../src/commands/shared/views/students.js';
import { EXTEND_PLAN_VIEW, transferResultView } from '../../../src/commands/shared/views/subscriptions.js';
import { bulkResultView } from '../../../src/commands/shared/views/bulk.js';
import { COURSE_ACCESS_VIEW } from '../../../src/commands/shared/views/courses.js';
import type { View } from '../../../src/output/view.js';
import { describe, expect, it } from 'vitest';
import { tableCell } from '../../../src/output/cell.js';
import Table from 'cli-table3';
import { strlen } from 'cli-table3/src/utils.js';
import { CHUNK_ROWS, fitWidths, renderTable, tableStyle } from '../../../src/output/table.js';
import type { CellFormat } from '../../../src/output/view.js';
import { globals, joao, maria, render, studentView } from './setup.js';
import { createOutput } from '../../../src/output/index.js';
import { fakeIo } from '../../helpers/fake-io.js';

// eslint-disable-next-line no-control-regex
const stripAnsi = (text: string) => text.replace(/\x1b\[\d+m/g, '');
const BOLD = (text: string) => `\x1b[1m${text}\x1b[22m`;

const PIPED = [
  'ID  NAME              ACTIVE  CREATED           PRODUCT',
  's1  Maria Souza       yes     2024-03-05 14:22  Yoga',
  's2  João, "Jô" Souza  no      2024-03-06 12:05  Pilates',
  '',
].join('\n');

const BOXED = [
  '┌────┬──────────────────┬────────┬──────────────────┬─────────┐',
  '│ ID │ NAME             │ ACTIVE │ CREATED          │ PRODUCT │',
  '├────┼──────────────────┼────────┼──────────────────┼─────────┤',
  '│ s1 │ Maria Souza      │ yes    │ 2024-03-05 14:22 │ Yoga    │',
  '│ s2 │ João, "Jô" Souza │ no     │ 2024-03-06 12:05 │ Pilates │',
  '└────┴──────────────────┴────────┴──────────────────┴─────────┘',
  '',
].join('\n');

const list = (out: Parameters<Parameters<typeof render>[1]>[0]) => out.list([maria, joao], studentView);

describe('table, piped, of a list whose records come slowly (members each: OutputOptions.growing)', () => {
  it('prints the header and each record as a plain line as it arrives, not aligned with the others', async () => {
    const fake = fakeIo();
    const output = await createOutput(fake.io, globals({}), { growing: true });
    const printed: string[] = [];
    // What stdout held when the next record was asked for: each line is out before the next record exists.
    async function* slowly() {
      yield maria;
      await new Promise((resolve) => setImmediate(resolve));
      printed.push(fake.stdout());
      yield joao;
    }
    expect(await output.list(slowly(), studentView)).toBe(2);
    await output.close();
    const lines = PIPED.split('\n').map((line) => line.split(/ {2,}/).join('  '));
    expect(printed).toEqual([`${lines[0]}\n${lines[1]}\n`]);
    expect(fake.stdout()).toBe(lines.join('\n'));
  });

  it('on a terminal, or into --out, the table is still aligned at the end', async () => {
    const fake = fakeIo({ stdoutTTY: true });
    const output = await createOutput(fake.io, globals({ color: false }), { growing: true });
    await output.list([maria, joao], studentView);
    await output.close();
    expect(stripAnsi(fake.stdout())).toContain('│ s1 │ Maria Souza      │');
  });
});

describe('table, piped', () => {
  it('prints plain columns two spaces apart: no colour, no borders, readable dates, one line per record', async () => {
    const { stdout, stderr } = await render({}, list);
    expect(stdout).toBe(PIPED);
    expect(stderr).toBe('');
  });

  it('never truncates, whatever the width', async () => {
    const { stdout } = await render({}, list, { columns: 20 });
    expect(stdout).toBe(PIPED);
  });

  it('drops the header row with --no-header', async () => {
    const { stdout } = await render({ header: false }, list);
    expect(stdout).toBe([
      's1  Maria Souza       yes  2024-03-05 14:22  Yoga',
      's2  João, "Jô" Souza  no   2024-03-06 12:05  Pilates',
      '',
    ].join('\n'));
  });

  it('prints one record as a key/value list of the view columns', async () => {
    const { stdout } = await render({}, (out) => out.one(maria, studentView));
    expect(stdout).toBe([
      'ID       s1',
      'NAME     Maria Souza',
      'ACTIVE   yes',
      'CREATED  2024-03-05 14:22',
      'PRODUCT  Yoga',
      '',
    ].join('\n'));
  });

  it('lets the view replace the whole rendering of one record', async () => {
    const view = { ...studentView, renderTable: (record: Record<string, unknown>) => `https://example.com/login/${String(record.id)}` };
    const { stdout } = await render({}, (out) => out.one(maria, view), { stdoutTTY: true });
    expect(stdout).toBe('https://example.com/login/s1\n');
  });

  it('replaces the columns with --fields, headed by their paths, keeping the format of a view column', async () => {
    const fields = ['product.title', 'created_at'];
    const { stdout } = await render({ fields }, list);
    expect(stdout).toBe('PRODUCT.TITLE  CREATED_AT\nYoga           2024-03-05 14:22\nPilates        2024-03-06 12:05\n');
    const view = { ...studentView, renderTable: () => 'not used with --fields' };
    const one = await render({ fields }, (out) => out.one(maria, view));
    expect(one.stdout).toBe('PRODUCT.TITLE  Yoga\nCREATED_AT     2024-03-05 14:22\n');
  });

  it('shows an API time that --fields names outside the view in the user\'s zone, as the view\'s own times (TZ=UTC in tests)', async () => {
    const subscription = { product: { title: 'Yoga', updated_at: '2024-06-10T01:49:00.000000Z' }, cancel_date: '2024-06-09T22:49:00-03:00', payment_last_date: '2024-06-01' };
    const { stdout } = await render({ fields: ['product.updated_at', 'cancel_date', 'payment_last_date'] }, (out) => out.one(subscription, studentView));
    expect(stdout).toBe('PRODUCT.UPDATED_AT  2024-06-10 01:49\nCANCEL_DATE         2024-06-10 01:49\nPAYMENT_LAST_DATE   2024-06-01\n');
  });

  it('prints nothing for an empty list and says so on stderr, unless --quiet', async () => {
    expect(await render({}, (out) => out.list([], studentView))).toEqual({ stdout: '', stderr: 'No students found\n' });
    expect(await render({ quiet: true }, (out) => out.list([], studentView))).toEqual({ stdout: '', stderr: '' });
  });

  it('neutralises control characters and line breaks from the API', async () => {
    const { stdout } = await render({ fields: ['name'] }, (out) => out.list([{ name: 'Eve\x1b]0;pwned\x07\r\nNext\tline' }], studentView));
    expect(stdout).toBe('NAME\nEve Next line\n');
  });

  it('bolds headers when FORCE_COLOR asks, keeping the plain layout', async () => {
    const { stdout } = await render({}, list, { env: { FORCE_COLOR: '1' } });
    expect(stdout).toContain(`${BOLD('ID')}  ${BOLD('NAME')}              ${BOLD('ACTIVE')}`);
    expect(stripAnsi(stdout)).toBe(PIPED);
  });
});

describe('table, on a terminal', () => {
  it('draws a box with bold headers', async () => {
    const { stdout } = await render({}, list, { stdoutTTY: true, columns: 120 });
    expect(stdout.split('\n')[1]).toBe(`│ ${BOLD('ID')} │ ${BOLD('NAME')}             │ ${BOLD('ACTIVE')} │ ${BOLD('CREATED')}          │ ${BOLD('PRODUCT')} │`);
    expect(stripAnsi(stdout)).toBe(BOXED);
  });

  it.each([
    ['--no-color', { color: false }, {}],
    ['NO_COLOR', {}, { NO_COLOR: '1' }],
    ['NO_COLOR over FORCE_COLOR', {}, { NO_COLOR: '1', FORCE_COLOR: '1' }],
    ['FORCE_COLOR=0', {}, { FORCE_COLOR: '0' }],
  ])('has no colour with %s', async (_name, opts, env) => {
    const { stdout } = await render(opts, list, { stdoutTTY: true, env });
    expect(stdout).toBe(BOXED);
  });

  it('draws the box in ASCII under TERM=dumb (no colour there either), and truncates with ~', async () => {
    const { stdout } = await render({}, list, { stdoutTTY: true, columns: 120, env: { TERM: 'dumb' } });
    expect(stdout).toBe([
      '+----+------------------+--------+------------------+---------+',
      '| ID | NAME             | ACTIVE | CREATED          | PRODUCT |',
      '+----+------------------+--------+------------------+---------+',
      '| s1 | Maria Souza      | yes    | 2024-03-05 14:22 | Yoga    |',
      '| s2 | João, "Jô" Souza | no     | 2024-03-06 12:05 | Pilates |',
      '+----+------------------+--------+------------------+---------+',
      '',
    ].join('\n'));
    const narrow = await render({}, list, { stdoutTTY: true, columns: 40, env: { TERM: 'dumb' } });
    expect(narrow.stdout).toContain('~');
    expect(narrow.stdout).not.toMatch(/[─│┌…]/);
  });

  it('fits the terminal width: a low-value column (created) goes before a name is cut', async () => {
    const { stdout } = await render({ color: false }, list, { stdoutTTY: true, columns: 50 });
    expect(stdout).toBe([
      '┌────┬──────────────────┬────────┬─────────┐',
      '│ ID │ NAME             │ ACTIVE │ PRODUCT │',
      '├────┼──────────────────┼────────┼─────────┤',
      '│ s1 │ Maria Souza      │ yes    │ Yoga    │',
      '│ s2 │ João, "Jô" Souza │ no     │ Pilates │',
      '└────┴──────────────────┴────────┴─────────┘',
      '',
    ].join('\n'));
  });

  it('never cuts an identifier: names shrink, e-mails and ids stay whole; CJK counts two columns', async () => {
    const view = { noun: 'students', columns: [{ header: 'id', path: 'id' }, { header: 'name', path: 'full_name' }, { header: 'e-mail', path: 'email' }] };
    const rows = [
      { id: 'a812b423-013e-4fa2-956d-fa1df12a0ebf', full_name: 'Antônia da Conceição Ferreira Lima', email: 'antonia_conceicao@yahoo.com.br' },
      { id: 'b3f2b7a0-e851-4123-96a9-30dbdfcc6ae3', full_name: '山田太郎 やまだたろう', email: 'taro@example.jp' },
    ];
    const { stdout } = await render({ color: false }, (out) => out.list(rows, view), { stdoutTTY: true, columns: 100 });
    const lines = stdout.trimEnd().split('\n');
    for (const row of rows) {
      expect(stdout).toContain(row.id);
      expect(stdout).toContain(row.email);
    }
    expect(stdout).toContain('…');
    // Every line is exactly as wide as the terminal allows, CJK counted double.
    const { default: stringWidth } = await import('string-width');
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(100);
  });

  it('never cuts a date: the title beside it shrinks instead', async () => {
    const view = { noun: 'subscriptions', columns: [{ header: 'product', path: 'title' }, { header: 'expiration', path: 'expiration_date', format: 'date' as const }] };
    const rows = [{ title: 'Python Pro — Vitalício', expiration_date: '2027-07-05' }];
    const { stdout } = await render({ color: false }, (out) => out.list(rows, view), { stdoutTTY: true, columns: 24 });
    expect(stdout.split('\n')[3]).toBe('│ Python… │ 2027-07-05 │');
  });

  it('drops a column its view lets go (dropLate) after the low-value ones, before cutting text short', async () => {
    const view = {
      noun: 'subscriptions',
      columns: [
        { header: 'product', path: 'title' },
        { header: 'why', path: 'why' },
        { header: 'product id', path: 'product_id', dropLate: true },
        { header: 'updated', path: 'updated_at' },
      ],
    };
    const rows = [{ title: 'Python Pro', why: 'access off: canceled, expired 2024-01-01', product_id: 'ff7dcfbe-efc5-4f45-b1ca-ffb7622f7213', updated_at: 'x' }];
    const at = async (columns: number) => (await render({ color: false }, (out) => out.list(rows, view), { stdoutTTY: true, columns })).stdout.split('\n')[3];
    expect(await at(120)).toBe('│ Python Pro │ access off: canceled, expired 2024-01-01 │ ff7dcfbe-efc5-4f45-b1ca-ffb7622f7213 │ x       │');
    // The low-value column goes first; "why" keeps a readable width, the id stays whole.
    expect(await at(75)).toBe('│ Python Pro │ access off: cancel… │ ff7dcfbe-efc5-4f45-b1ca-ffb7622f7213 │');
    // Narrower, the id goes too, whole, rather than "why" cut to a few characters.
    expect(await at(60)).toBe('│ Python Pro │ access off: canceled, expired 2024-01-01 │');
  });

  it('a note (wrap) is read whole on a narrow terminal, on more lines of its cell; an empty view can keep quiet', async () => {
    const view = {
      noun: 'changes', quietWhenEmpty: true,
      columns: [{ header: 'action', path: 'action' }, { header: 'product id', path: 'product_id', kind: 'low' as const }, { header: 'note', path: 'note', wrap: true }],
    };
    const note = 'status canceled becomes active (the server default)';
    const rows = [{ action: 'restore', product_id: 'ff7dcfbe-efc5-4f45-b1ca-ffb7622f7213', note }, { action: 'grant', product_id: 'ff7dcfbe', note: '' }];
    const at = async (columns: number) => (await render({ color: false }, (out) => out.list(rows, view), { stdoutTTY: true, columns })).stdout.split('\n');
    expect((await at(120))[3]).toBe(`│ restore │ ff7dcfbe-efc5-4f45-b1ca-ffb7622f7213 │ ${note} │`);
    // The id (low) is dropped whole, never cut; the note's words are all there, none cut with '…'.
    const narrow = await at(30);
    expect(narrow.every((line) => line.length <= 30)).toBe(true);
    expect(narrow.join('\n')).not.toContain('…');
    expect(narrow.join('\n')).not.toContain('ff7dcfbe');
    const noteText = narrow.slice(3).map((line) => line.split('│')[2]?.trim() ?? '').join(' ').replace(/\s+/g, ' ');
    expect(noteText).toContain(note);
    const empty = await render({ color: false }, (out) => out.list([], view), { stdoutTTY: true, columns: 80 });
    expect(empty.stderr).toBe('');
  });

  it('the history keeps its REASON and its ID (for `members undo`) on a narrow terminal: user, profile, command, product id, then student go first', async () => {
    const record = {
      time: '2026-03-05T12:00:00Z', user: 'ana', profile: 'production', command: 'students revoke', student: 'maria@example.com',
      product_title: 'Python Pro', product_id: 'ff7dcfbe-efc5-4f45-b1ca-ffb7622f7213', result: 'revoked', reason: 'refund #771', id: 'm5k2x1ab-3f9c2e4d7a01',
    };
    const head = async (columns: number) => (await render({ color: false }, (out) => out.list([record], HISTORY_VIEW), { stdoutTTY: true, columns })).stdout.split('\n')[1];
    expect(await head(200)).toMatch(/│ USER .*│ PROFILE .*│ COMMAND .*│ PRODUCT ID .*│ REASON .*│ ID /);
    expect(await head(115)).toMatch(/^│ TIME +│ STUDENT +│ PRODUCT +│ RESULT +│ REASON +│ ID +│$/);
    expect(await head(90)).toMatch(/^│ TIME +│ PRODUCT +│ RESULT +│ REASON +│ ID +│$/);
    // 80 columns: the id whole, the text cut rather than the id dropped.
    const table = (await render({ color: false }, (out) => out.list([record], HISTORY_VIEW), { stdoutTTY: true, columns: 80 })).stdout.split('\n');
    expect(table[1]).toMatch(/^│ TIME +│ PRODUCT +│ RESULT +│ REASON +│ ID +│$/);
    expect(table[3]).toContain('│ m5k2x1ab-3f9c2e4d7a01 │');
    expect(Math.max(...table.map((line) => line.length))).toBeLessThanOrEqual(80);
    // With an e-mail as long as an id, still.
    expect((await render({ color: false }, (out) => out.list([{ ...record, student: 'maria.aparecida.dos.santos.1979@example.com' }], HISTORY_VIEW), { stdoutTTY: true, columns: 80 }))
      .stdout.split('\n')[1]).toMatch(/│ ID +│$/);
  });

  it('a search keeps the columns the query matched on a narrow terminal; the phone only when shown, and the others go first', async () => {
    const found = {
      full_name: 'Thaís Leão Simões', email: 'thais.leao21@gmail.com', phone: '+55 61 95591-2284', document: '346.719.699-39',
      reference_id: 'CRM-0004411', created_at: '2024-03-02T10:41:00Z',
    };
    const head = async (shown: string[], columns: number) => (await render(
      { color: false }, (out) => out.list([found], studentSearchView(new Set(shown) as Parameters<typeof studentSearchView>[0])), { stdoutTTY: true, columns },
    )).stdout.split('\n')[1];
    expect(await head(['phone'], 120)).toMatch(/^│ NAME +│ E-MAIL +│ PHONE +│ DOCUMENT +│ REFERENCE +│ CREATED +│$/);
    expect(await head(['phone'], 70)).toMatch(/^│ NAME +│ E-MAIL +│ PHONE +│$/);
    expect(await head(['reference'], 70)).toMatch(/^│ NAME +│ E-MAIL +│ REFERENCE +│$/);
    expect(await head(['name'], 85)).toMatch(/^│ NAME +│ E-MAIL +│ DOCUMENT +│ REFERENCE +│$/);
    expect(await head(['document', 'reference'], 60)).toMatch(/^│ NAME +│ E-MAIL +│ DOCUMENT +│ REFERENCE +│$/);
  });

  describe('plans and results in an 80-column terminal (QA): the decision stays readable, names and ids give way', () => {
    const PRODUCT_ID = '3be17c74-8ad6-4a83-b013-8f2c977a0fa0';
    const at80 = async (rows: Record<string, unknown>[], view: View) => {
      const { stdout } = await render({ color: false }, (out) => out.list(rows, view), { stdoutTTY: true, columns: 80 });
      const { default: stringWidth } = await import('string-width');
      for (const line of stdout.trimEnd().split('\n')) expect(stringWidth(line)).toBeLessThanOrEqual(80);
      return stdout;
    };
    /** The text of a wrapped column, its lines joined back (each row's cells read top to bottom). */
    const column = (stdout: string, index: number) => stdout.split('\n').map((line) => line.split('│')[index]?.trim() ?? '').filter(Boolean).join(' ');

    it('subscriptions extend: the action and old → new stay whole, the note wraps whole, the student shrinks, the status goes', async () => {
      const note = "status canceled becomes active (the server's default for a grant); left out: pass --include-status-changes to extend it";
      const rows = [
        { action: 'extend', student: 'Natália Freitas <natalia_freitas@gmail.com>', status: 'active', expiration_date: '2025-07-17', new_expiration_date: '2027-03-31', note: null },
        { action: 'left out', student: 'Rafael Rocha Carvalho <rafael.carvalho@terra.com.br>', status: 'canceled', expiration_date: '2026-02-27', new_expiration_date: '2027-03-31', note },
      ];
      const stdout = await at80(rows, EXTEND_PLAN_VIEW);
      expect(stdout.split('\n')[1]).toMatch(/^│ ACTION +│ STUDENT +│ EXPIRATION +│ NOTE +│$/);
      expect(stdout).toContain('│ extend   │ Natália Fre… │ 2025-07-17 → 2027-03-31 │');
      expect(stdout).toContain('│ left out │ Rafael Roch… │ 2026-02-27 → 2027-03-31 │ status canceled');
      expect(column(stdout.split('\n').slice(4).join('\n'), 4)).toBe(note);
    });

    it('students grant --file: products by title (ids in -o json), RESULT whole, the message wrapped, the e-mail shrinks', async () => {
      const message = `would grant product "Python Pro" (${PRODUCT_ID}) to Angela Santos <angela_santos@bol.com.br> until 2026-12-31 (dry run; nothing sent)`;
      const rows = [{ line: 5, student: 'marcelo_conceicao+compras@terra.com.br', product_id: PRODUCT_ID, result: 'granted', message }];
      const stdout = await at80(rows, bulkResultView({ done: 'granted' }, new Map([[PRODUCT_ID, 'Python Pro']])));
      expect(stdout).toMatch(/│ 5 +│ marcelo_con… │ Python Pro +│ granted │ would grant product/);
      expect(stdout).not.toMatch(/gra…|wou…/);
      expect(stdout.split('\n')[3]).not.toContain(PRODUCT_ID);
    });

    it('students transfer: the STEP and RESULT whole, products by title', async () => {
      const rows = [{ step: 'grant', student: 'maria.fernanda.oliveira@example.com', product_id: PRODUCT_ID, result: 'granted', message: `granted "Python Pro" (${PRODUCT_ID}) to Maria Fernanda Oliveira until 2027-01-01` }];
      const stdout = await at80(rows, transferResultView(new Map([[PRODUCT_ID, 'Python Pro']])));
      expect(stdout).toMatch(/│ grant │ [^│]+│ Python Pro +│ granted │ granted "Python Pro"/);
      expect(stdout).not.toMatch(/gra…/);
    });

    it('courses accesses --finished: FINISHED and LAST ACCESS go before the name is cut', async () => {
      const rows = [{ name: 'Antônio Magalhães', email: 'antonio.magalhaes@uol.com.br', course: { last_access_at: '2025-04-30T20:20:00Z', finished: 1, finished_at: '2025-04-30T20:20:00Z' } }];
      const stdout = await at80(rows, COURSE_ACCESS_VIEW);
      expect(stdout.split('\n')[1]).toMatch(/^│ NAME +│ E-MAIL +│ FINISHED AT +│$/);
      expect(stdout).toContain('│ Antônio Magalhães │ antonio.magalhaes@uol.com.br │ 2025-04-30 20:20 │');
    });

    it('piped, nothing changes: ids and messages whole on one line', async () => {
      const rows = [{ line: 2, student: 'a@b.c', product_id: PRODUCT_ID, result: 'granted', message: 'would grant' }];
      const { stdout } = await render({}, (out) => out.list(rows, bulkResultView({ done: 'granted' }, new Map([[PRODUCT_ID, 'Python Pro']]))), { columns: 80 });
      expect(stdout.split('\n')[1]).toBe('2     a@b.c    Python Pro  granted  would grant');
    });
  });

  it('prints one record as a boxed key/value list with bold keys, without --no-header hiding them', async () => {
    const { stdout } = await render({ header: false }, (out) => out.one({ id: 's1', name: 'Maria Souza' }, studentView), { stdoutTTY: true });
    expect(stdout).toBe([
      '┌─────────┬─────────────┐',
      `│ ${BOLD('ID')}      │ s1          │`,
      `│ ${BOLD('NAME')}    │ Maria Souza │`,
      `│ ${BOLD('ACTIVE')}  │             │`,
      `│ ${BOLD('CREATED')} │             │`,
      `│ ${BOLD('PRODUCT')} │             │`,
      '└─────────┴─────────────┘',
      '',
    ].join('\n'));
  });
});

describe('a long table, rendered a chunk of rows at a time', () => {
  // Some cells wrap onto several lines of a narrow column, some are cut, one column is sized by cli-table3 alone.
  const NOTES = ['paid', 'asked for a refund on the second of March, then changed her mind', '', 'São Paulo 東京 café', 'x'.repeat(30)];
  const rowsOf = (count: number) => Array.from({ length: count }, (_, index) => [
    `s${index}`, `Student number ${index} of a long list`, { content: NOTES[index % NOTES.length], wordWrap: true }, index % 7 === 0 ? '' : 'yes',
  ]);
  const head = ['ID', '\x1b[1mNAME\x1b[22m', 'NOTE', 'ACTIVE'];
  const colWidths = [null, 12, 14, null];
  const styles = [['piped', tableStyle({ tty: false })], ['boxed', tableStyle({ tty: true })], ['ASCII (TERM=dumb)', tableStyle({ tty: true, ascii: true })]] as const;
  const oneTable = (rows: ReturnType<typeof rowsOf>, withHead: boolean, { boxed: _, ...options }: ReturnType<typeof tableStyle>) => {
    const table = new Table({ ...options, head: withHead ? head : [], colWidths: [...colWidths] });
    table.push(...rows);
    return table.toString();
  };

  it.each(styles)('prints, %s, exactly what one cli-table3 table prints', (_, style) => {
    const rows = rowsOf(1200 + 34);
    for (const withHead of [true, false]) {
      const chunked = renderTable(Table, strlen, { head: withHead ? head : [], colWidths, rows }, style);
      expect(chunked).toBe(oneTable(rows, withHead, style));
    }
  });

  it.each(styles)('joins the chunks exactly at their edges, %s', (_, style) => {
    for (const count of [0, 1, CHUNK_ROWS - 1, CHUNK_ROWS, CHUNK_ROWS + 1, 2 * CHUNK_ROWS]) {
      const rows = rowsOf(count);
      for (const withHead of [true, false]) {
        expect(renderTable(Table, strlen, { head: withHead ? head : [], colWidths, rows }, style)).toBe(oneTable(rows, withHead, style));
      }
    }
  });

  it('lists many records with one header and one box', async () => {
    const many = Array.from({ length: 1234 }, (_, index) => ({ ...maria, id: `s${index}` }));
    const { stdout } = await render({}, (out) => out.list(many, studentView), { stdoutTTY: true, columns: 40 });
    const lines = stdout.trimEnd().split('\n');
    const rules = lines.flatMap((line, index) => (/^[┌├└]/.test(line) ? [index] : []));
    expect(rules).toEqual([0, 2, lines.length - 1]);
    expect(lines.length).toBe(1234 + 4);
    expect(lines.filter((line) => line.includes('s1233 ')).length).toBe(1);
  });
});

describe('fitWidths', () => {
  it('leaves widths that fit alone', () => {
    expect(fitWidths([2, 16, 6], 24)).toEqual([2, 16, 6]);
  });

  it('cuts the widest columns to a common width and fills the budget exactly', () => {
    expect(fitWidths([2, 16, 6, 16, 7], 34)).toEqual([2, 10, 6, 9, 7]);
    expect(fitWidths([30, 5, 40], 25)).toEqual([10, 5, 10]);
  });

  it('cuts the names first, down to 12 characters, before any other column', () => {
    expect(fitWidths([8, 52, 23, 20], 67, [], [false, true, false, false])).toEqual([8, 16, 23, 20]);
    expect(fitWidths([8, 52, 23, 40], 67, [false, false, true], [false, true])).toEqual([8, 12, 23, 24]);
  });

  it('never goes below 4 characters a column', () => {
    expect(fitWidths([10, 10, 2], 5)).toEqual([4, 4, 2]);
  });

  it('keeps a column at its floor (a note\'s longest word) while the others go on shrinking, when the budget allows it', () => {
    expect(fitWidths([30, 40], 20)).toEqual([10, 10]);
    expect(fitWidths([30, 40], 20, [], [], [0, 12])).toEqual([8, 12]);
    expect(fitWidths([30, 40, 30], 30, [], [], [0, 12])).toEqual([9, 12, 9]);
    // A floor below the common width changes nothing; one the budget cannot meet gives way, as if there were none.
    expect(fitWidths([30, 40], 24, [], [], [0, 10])).toEqual([12, 12]);
    expect(fitWidths([30, 40], 10, [], [], [0, 12])).toEqual([5, 5]);
  });
});

describe('a wrapping note at 80 columns', () => {
  it('wraps between its words, never inside one, when the columns kept whole leave it little room', async () => {
    const view: View = {
      noun: 'changes',
      columns: [
        { header: 'action', path: 'action', whole: true }, { header: 'student', path: 'student', kind: 'identifier' },
        { header: 'product', path: 'product' }, { header: 'new expiry', path: 'expiry', format: 'date', dropLate: 'last' }, { header: 'note', path: 'note', wrap: true },
      ],
    };
    const record = {
      action: 'change-expiration', student: 'jose_falcao@outlook.com', product: 'Academia do Marketing Digital', expiry: '2031-06-30',
      note: 'status chargeback becomes active (the server\'s default for a grant)',
    };
    const { stdout } = await render({ color: false }, (out) => out.list([record], view), { stdoutTTY: true, columns: 80 });
    const lines = stdout.split('\n').filter((line) => line.includes('│'));
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    const notes = lines.slice(1).map((line) => line.split('│').at(-2)?.trim() ?? '');
    expect(notes.join(' ').replace(/\s+/g, ' ').trim()).toBe(record.note);
  });
});

describe('table cells', () => {
  const cell = (format: CellFormat | undefined, value: unknown) => tableCell({ header: 'x', path: 'x', format }, { x: value });

  it.each([
    ['datetime', '2024-03-05T14:22:09Z', '2024-03-05 14:22'],
    ['datetime', '2024-03-05T23:30:00.123-03:00', '2024-03-06 02:30'],
    ['datetime', '2024-03-05 23:30:00+0530', '2024-03-05 18:00'],
    ['datetime', '2024-03-05 14:22:09', '2024-03-05 14:22'], // no zone: as sent
    ['datetime', '2024-03-05', '2024-03-05'],
    ['datetime', '2024-13-45T10:00:00Z', '2024-13-45T10:00:00Z'], // not a date: as sent
    ['datetime', null, ''],
    ['date', '2024-03-05', '2024-03-05'],
    ['date', '2024-03-05T23:30:00-03:00', '2024-03-06'], // an instant: its day where the user is (UTC here)
    ['date', '2024-03-05 23:30:00', '2024-03-05'], // a wall-clock time: its own date
    ['date', 'soon', 'soon'],
    ['bool01', 1, 'yes'],
    ['bool01', '0', 'no'],
    ['bool01', true, 'yes'],
    ['bool01', false, 'no'],
    ['bool01', undefined, ''],
    [undefined, { a: 1 }, '{"a":1}'],
    [undefined, 12.5, '12.5'],
  ] as const)('%s shows %j as %j', (format, value, shown) => {
    expect(cell(format, value)).toBe(shown);
  });

  it('passes the value and the record to a custom format', () => {
    const column = { header: 'lessons', path: 'modules', format: (value: unknown, record: Record<string, unknown>) => `${(value as unknown[]).length} in ${String(record.name)}` };
    expect(tableCell(column, { name: 'Yoga', modules: [1, 2] })).toBe('2 in Yoga');
  });
});
