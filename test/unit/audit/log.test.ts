/** The audit log file: append and read back, permissions, size limit, tolerance of torn lines. */
import { appendFileSync, chmodSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MAX_REASON_CHARS, MAX_RECORD_BYTES, appendAudit, auditLine, newAuditId, readAllAudit, readAuditAt, readLocatedAudit,
  type AuditRecord, type LocatedRecord, type SkippedLine,
} from '../../../src/audit/log.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'members-audit-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const record = (overrides: Partial<AuditRecord> = {}): AuditRecord => ({
  id: newAuditId(), time: '2025-01-02T03:04:05.000Z', user: 'ana', profile: 'production', base_url: 'https://members.example.com',
  command: 'students grant', action: 'grant', student: 'maria@example.com', student_id: 's1', product_id: 'p1',
  result: 'granted', request_id: 'req-1', reason: 'ticket 4411',
  after: { id: 7, product_id: 'p1', accession_date: '2025-01-02', expiration_date: null, status: 'active', active: 1 },
  ...overrides,
});

const file = () => join(dir, 'audit.jsonl');

describe('appendAudit and readAudit', () => {
  it('round-trips records in order, one line each, keys in a fixed order', async () => {
    const first = record();
    const second = record({ action: 'revoke', result: 'revoked', after: undefined, before: { product_id: 'p1', accession_date: '2024-01-01' } });
    appendAudit(dir, first);
    appendAudit(dir, [second]);
    const lines = readFileSync(file(), 'utf8').split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(Object.keys(JSON.parse(lines[0] as string))).toEqual([
      'id', 'time', 'user', 'profile', 'base_url', 'command', 'action', 'student', 'student_id', 'product_id', 'result',
      'request_id', 'reason', 'after',
    ]);
    expect(await readAllAudit(dir)).toEqual([first, second]);
  });

  it('reads nothing, and creates nothing, when there is no log yet', async () => {
    expect(await readAllAudit(join(dir, 'missing'))).toEqual([]);
  });

  it('creates the directory 0700 and the file 0600 even with a loose umask', () => {
    const previous = process.umask(0o000);
    try {
      const nested = join(dir, 'config');
      appendAudit(nested, record());
      expect(statSync(nested).mode & 0o777).toBe(0o700);
      expect(statSync(join(nested, 'audit.jsonl')).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(previous);
    }
  });

  it('tightens a log found readable by others before writing to it', () => {
    writeFileSync(file(), '');
    chmodSync(file(), 0o644);
    appendAudit(dir, record());
    expect(statSync(file()).mode & 0o777).toBe(0o600);
  });

  it('skips a torn or invalid line with a report, and keeps a whole record written after a torn one', async () => {
    const [a, b, c] = [record(), record(), record()];
    appendAudit(dir, a);
    // A write cut short (no newline), then the next append on the same line.
    appendFileSync(file(), JSON.stringify(b).slice(0, 40));
    appendAudit(dir, b);
    appendFileSync(file(), 'not json\n\n{"id":"x"}\n');
    appendAudit(dir, c);
    const skipped: SkippedLine[] = [];
    expect(await readAllAudit(dir, (line) => skipped.push(line))).toEqual([a, b, c]);
    expect(skipped.map(({ line }) => line)).toEqual([2, 3, 5]);
  });
});

describe('readLocatedAudit and readAuditAt: records read again by where they lie', () => {
  it('gives each record\'s byte position (accents, CRLF, a record rescued after a torn one), and reads them back alone, in any order', async () => {
    const [a, b, c] = [record({ student: 'joão@exemplo.com' }), record(), record()];
    appendAudit(dir, a);
    appendFileSync(file(), `${JSON.stringify(b).slice(0, 40)}${JSON.stringify(b)}\r\n`);
    appendAudit(dir, c);
    const located: LocatedRecord[] = [];
    for await (const item of readLocatedAudit(dir)) located.push(item);
    expect(located.map((item) => item.record)).toEqual([a, b, c]);
    const bytes = readFileSync(file());
    for (const { record: expected, at } of located) {
      expect(JSON.parse(bytes.subarray(at.offset, at.offset + at.length).toString('utf8'))).toEqual(expected);
    }
    const back: AuditRecord[] = [];
    for await (const found of readAuditAt(dir, [...located].reverse().map((item) => item.at))) back.push(found);
    expect(back).toEqual([c, b, a]);
  });

  it('reads nothing when there is no log yet', async () => {
    const back: AuditRecord[] = [];
    for await (const found of readAuditAt(join(dir, 'missing'), [{ offset: 0, length: 10 }])) back.push(found);
    expect(back).toEqual([]);
  });
});

describe('auditLine', () => {
  it('cuts a long reason to MAX_REASON_CHARS characters', () => {
    const line = auditLine(record({ reason: 'é'.repeat(5000) }));
    const reason = (JSON.parse(line) as AuditRecord).reason as string;
    expect([...reason]).toHaveLength(MAX_REASON_CHARS);
    expect(reason.endsWith('…')).toBe(true);
  });

  it('keeps every record under MAX_RECORD_BYTES, halving the longest strings, never the id', () => {
    const long = '漢'.repeat(900);
    const big = record({
      student: long, command: long, reason: long,
      before: { first_name: long, last_name: long, email: long, phone: long, birth: null, document: long, reference_id: long },
    });
    const line = auditLine(big);
    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(MAX_RECORD_BYTES);
    expect(line.endsWith('\n')).toBe(true);
    expect(line.indexOf('\n')).toBe(line.length - 1);
    expect((JSON.parse(line) as AuditRecord).id).toBe(big.id);
  });
});

describe('newAuditId', () => {
  it('is short, sortable by time, and unique', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newAuditId(1_700_000_000_000)));
    expect(ids.size).toBe(10_000);
    const id = newAuditId(1_700_000_000_000);
    expect(id).toMatch(/^[0-9a-z]{8}-[0-9a-f]{12}$/);
    expect(newAuditId(1_700_000_000_001) > id.slice(0, 8)).toBe(true);
  });
});

describe('an audit log replaced by a symlink', () => {
  it('is refused (O_NOFOLLOW): the target is neither written nor chmod-ed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'members-audit-link-'));
    const target = join(dir, 'elsewhere.txt');
    writeFileSync(target, 'precious\n');
    chmodSync(target, 0o644);
    symlinkSync(target, join(dir, 'audit.jsonl'));
    expect(() => appendAudit(dir, { id: 'x1', time: '2025-01-01T00:00:00Z', user: 'u', profile: 'p', base_url: '', command: 'c', action: 'grant', result: 'granted' } as AuditRecord))
      .toThrow(/ELOOP/);
    expect(readFileSync(target, 'utf8')).toBe('precious\n');
    expect(statSync(target).mode & 0o777).toBe(0o644);
  });
});
