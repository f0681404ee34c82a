/** `members __complete-undo` (src/completion/complete.ts): what `undo <Tab>` offers, from the end of the local audit log only. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCompletionHelper } from '../../../src/completion/complete.js';

let dir: string | undefined;
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

function undoIds(lines: string[]): string[] {
  dir = mkdtempSync(join(tmpdir(), 'members-undo-ids-'));
  writeFileSync(join(dir, 'audit.jsonl'), `${lines.join('\n')}\n`);
  let out = '';
  runCompletionHelper('undo', { MEMBERS_CONFIG_DIR: dir }, (text) => (out += text));
  return out.split('\n').filter(Boolean);
}

const change = (n: number, action = 'grant') => JSON.stringify({
  id: `m${String(n).padStart(7, '0')}-aaaaaaaaaaaa`, time: '2026-11-22T10:05:00.000Z', command: `students ${action}`, action, result: 'x',
  student: 'ana@example.com', product_id: 'p1', reason: 'r'.repeat(200),
});

describe('__complete-undo', () => {
  it('offers the 20 newest changes undo can reverse, newest first, each with what it was (tab-separated)', () => {
    const lines = undoIds([change(1), change(2, 'magic-link'), ...Array.from({ length: 25 }, (_, i) => change(i + 3, i % 2 ? 'revoke' : 'delete'))]);
    expect(lines).toHaveLength(20);
    expect(lines[0]).toBe('m0000027-aaaaaaaaaaaa\tstudents delete ana@example.com p1 2026-11-22 10:05');
    expect(lines.some((line) => line.includes('magic-link'))).toBe(false);
  });

  it('offers a run by its own record, named by its command', () => {
    const lines = undoIds([change(1), JSON.stringify({ id: 'm0000002-bbbbbbbbbbbb', time: '2026-11-22T11:00:00.000Z', command: 'students transfer', action: 'bulk', result: 'completed' })]);
    expect(lines[0]).toBe('m0000002-bbbbbbbbbbbb\tstudents transfer 2026-11-22 11:00');
  });

  it('reads only the end of a large log, skipping the line it cuts and any torn line', () => {
    const many = Array.from({ length: 3000 }, (_, i) => change(i + 1));
    const lines = undoIds([...many, '{"id": "torn']);
    expect(lines[0]?.split('\t')[0]).toBe('m0003000-aaaaaaaaaaaa');
    expect(lines).toHaveLength(20);
  });

  it('prints nothing without a log, and never a control character from a recorded value', () => {
    dir = mkdtempSync(join(tmpdir(), 'members-undo-ids-'));
    let out = '';
    runCompletionHelper('undo', { MEMBERS_CONFIG_DIR: join(dir, 'absent') }, (text) => (out += text));
    expect(out).toBe('');
    const hostile = JSON.stringify({ id: 'm0000001-aaaaaaaaaaaa', time: 'x', command: 'students grant', action: 'grant', student: 'a\u001b]52;c;Zm9v\u0007\tb' });
    expect(undoIds([hostile])[0]).toBe('m0000001-aaaaaaaaaaaa\tstudents grant a b x');
  });
});
