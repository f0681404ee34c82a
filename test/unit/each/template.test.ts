import { describe, expect, it } from 'vitest';
import { compileTemplate } from '../../../src/commands/shared/each/template.js';
import { knownFields, rowKind } from '../../../src/commands/shared/each/policy.js';
import { POINTS_COLUMN, SCORE_COLUMN, STUDENT_COLUMN, findColumn } from '../../../src/commands/shared/each/shorthand.js';
import { doneMessage, printedFields } from '../../../src/commands/shared/each/rows.js';
import { UsageError } from '../../../src/lib/errors.js';

const HEADER = ['Carimbo de data/hora', 'Nome completo', 'E-mail', 'WhatsApp'];
const row = (values: Record<string, string>, line = 2) => ({ line, values });

describe('compileTemplate', () => {
  it('matches a placeholder to a column without regard to case, accents, spaces, - _ or .', () => {
    const template = compileTemplate(['magic-link', '{e mail}', '--reason', 'turma {NOME_COMPLETO} ({line})'], HEADER, 'turma.csv');
    expect(template.expand(row({ 'E-mail': 'ana@x.co', 'Nome completo': 'Ana Lívia' }, 7))).toEqual({ argv: ['magic-link', 'ana@x.co', '--reason', 'turma Ana Lívia (7)'] });
    expect(template.columns).toEqual(['E-mail', 'Nome completo']);
    expect(compileTemplate(['x', '{Atenção}'], ['atencao'], 'f').expand(row({ atencao: 'ok' }))).toEqual({ argv: ['x', 'ok'] });
  });

  it('keeps {{ and }} as literal braces, and the text of the command line for messages', () => {
    const template = compileTemplate(['api', '{{"a": {line}}}', 'two words'], HEADER, 'f');
    expect(template.expand(row({}, 3))).toEqual({ argv: ['api', '{"a": 3}', 'two words'] });
    expect(template.text).toBe('api "{{\\"a\\": {line}}}" "two words"');
  });

  it('refuses a placeholder naming no column, or two, listing the columns', () => {
    expect(() => compileTemplate(['scores', 'set', '{Email}', '{Points}'], ['E-mail', 'Pontos'], 'p.csv'))
      .toThrow(new UsageError('{Points} names no column: the columns of p.csv are {E-mail}, {Pontos}, and {line} is the row\'s line. A literal brace is written {{ or }}'));
    expect(() => compileTemplate(['x', '{email}'], ['E-mail', 'email'], 'p.csv')).toThrow(/\{email\} could name the columns "E-mail" and "email" of p.csv/);
    // A column named line wins over the line number.
    expect(compileTemplate(['x', '{line}'], ['Line'], 'f').expand(row({ Line: 'L' }, 9))).toEqual({ argv: ['x', 'L'] });
  });

  it('shows empty arguments and those with quotes as JSON strings in the command line\'s text', () => {
    expect(compileTemplate(['students', 'grant', '{E-mail}', '', '--reason', "it's"], HEADER, 'f').text).toBe('students grant {E-mail} "" --reason "it\'s"');
  });

  it('names a placeholder as typed, spaces around it aside, when it names no column', () => {
    expect(() => compileTemplate(['x', '{ Points }'], ['E-mail'], 'p.csv')).toThrow(/^\{Points\} names no column/);
    expect(() => compileTemplate(['x', '{}'], ['E-mail'], 'p.csv')).toThrow(/^\{\} names no column/);
  });

  it('makes a row whose placeholder names an empty cell a problem, not an empty argument', () => {
    const template = compileTemplate(['magic-link', '{E-mail}'], HEADER, 'f');
    expect(template.expand(row({ 'E-mail': '' }))).toEqual({ problem: 'the column "E-mail" is empty' });
    expect(template.expand(row({}))).toEqual({ problem: 'the column "E-mail" is empty' });
  });
});

describe('rowKind', () => {
  const RUNS = {
    'magic-link': 'changes', 'scores get': 'reads', 'scores set': 'changes', 'scores add': 'changes',
    'students get': 'reads', 'students show': 'reads', 'students search': 'reads', 'students products': 'reads',
    'students create': 'changes', 'students delete': 'changes', 'students grant': 'changes', 'students revoke': 'changes', 'students transfer': 'changes',
    'subscriptions get': 'reads', 'courses accesses': 'reads',
  };

  it.each(Object.entries(RUNS))('runs %s, which %s something (a change needs the run\'s confirmation)', (path, kind) => {
    expect(rowKind(path)).toBe(kind);
  });

  it('lists the commands it runs when it refuses one', () => {
    expect(() => rowKind('report')).toThrow(new UsageError(`members each cannot run \`report\`: one report answers for every row. It runs ${Object.keys(RUNS).join(', ')}`));
  });

  it.each([
    ['each', 'a run of its own'], ['sync', 'a run of its own over a whole file'], ['auth login', 'it changes the setup'],
    ['sandbox', 'it starts a server'], ['mcp', 'it serves an assistant'], ['completion', 'it prints shell code'], ['help', 'it prints help'], ['undo', 'it undoes whole runs itself'],
    ['api', 'its requests are not recorded'], ['students list', 'it is not a command of one student or record'],
    ['students import', 'a run of its own: run `members students import F`'], ['subscriptions extend', 'a planned run of its own'],
    ['history', 'one history answers for every row: `members history`'], ['version', 'it prints the version'], ['report', 'one report answers for every row'],
    ['sync --dry-run', 'a run of its own over a whole file'],
  ])('refuses %s (exit 2), saying why', (path, why) => {
    expect(() => rowKind(path)).toThrow(UsageError);
    expect(() => rowKind(path)).toThrow(`members each cannot run \`${path}\`: ${why}`);
  });
});

describe('knownFields', () => {
  it('the results\' columns of the commands whose answer has a schema, before any row is done; none for the others', () => {
    expect(knownFields('magic-link')).toEqual(['expire_in', 'url']);
    for (const path of ['scores get', 'scores set', 'scores add']) expect(knownFields(path)).toEqual(['score', 'posts', 'comments', 'replies']);
    for (const path of ['students get', 'students grant', 'courses accesses']) expect(knownFields(path)).toBeUndefined();
  });
});

describe('what a row printed', () => {
  it('keeps the scalar fields of one record, or counts a list', () => {
    expect(printedFields('{"expire_in":3600,"url":"https://x/magic/1","nested":{"a":1},"none":null}')).toEqual({ expire_in: 3600, url: 'https://x/magic/1', none: null });
    expect(printedFields('[{"score":3}]')).toEqual({ score: 3 });
    expect(printedFields('[{"a":1},{"a":2}]')).toEqual({ count: 2 });
    expect(printedFields('')).toEqual({});
    expect(printedFields('not json')).toEqual({});
  });

  it('takes the command\'s last ✓ line as the message', () => {
    expect(doneMessage('→ default (h)\n✓ Set the score of Ana to 3\n')).toBe('Set the score of Ana to 3');
    expect(doneMessage('→ default (h)\n')).toBe('');
  });
});

describe('the columns of the file shorthands', () => {
  it.each([
    [STUDENT_COLUMN, ['Student', 'Student e-mail', 'E-mail', 'CPF', 'Documento', 'Document', 'Student ID', 'Aluno', 'Aluna', 'ID']],
    [SCORE_COLUMN, ['Score', 'Pontos', 'Pontuação', 'Points', 'Nota']],
    [POINTS_COLUMN, ['Points', 'Pontos', 'Score', 'Pontuação', 'Nota']],
  ])('finds the $name column under each header it knows, the first listed winning', (column, headers) => {
    for (const [index, header] of headers.entries()) {
      // The header alone, and after every header listed later (which it wins over).
      expect(findColumn(['Outro', header], column, 'f')).toBe(header);
      expect(findColumn(['Outro', ...headers.slice(index + 1).reverse(), header], column, 'f')).toBe(header);
    }
  });

  it('finds the student and the score by their headers, the first kind listed winning', async () => {
    const { findColumn, STUDENT_COLUMN, SCORE_COLUMN, POINTS_COLUMN } = await import('../../../src/commands/shared/each/shorthand.js');
    expect(findColumn(['Nome', 'E-mail', 'Pontos'], STUDENT_COLUMN, 'p.csv')).toBe('E-mail');
    expect(findColumn(['CPF', 'Student'], STUDENT_COLUMN, 'p.csv')).toBe('Student');
    expect(findColumn(['Nome', 'E-mail', 'Pontos'], SCORE_COLUMN, 'p.csv')).toBe('Pontos');
    expect(findColumn(['Score', 'Points'], POINTS_COLUMN, 'p.csv')).toBe('Points');
    expect(() => findColumn(['Nome', 'Pontos'], STUDENT_COLUMN, 'p.csv')).toThrow(/^p\.csv has no student column: its header is "Nome", "Pontos"; name one of them student, studentemail, email, cpf…/);
    expect(() => findColumn(['Nome'], SCORE_COLUMN, 'p.csv')).toThrow(/^p\.csv has no score column: .* name one of them score, pontos, pontuacao, points…/);
  });
});
