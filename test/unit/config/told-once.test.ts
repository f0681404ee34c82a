import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOLD_ONCE_FILE, firstTime } from '../../../src/config/told-once.js';
import { tempDir } from '../../e2e/harness.js';

describe('firstTime (notices said once)', () => {
  it('is true once for each subject, remembered in the config directory it makes (0700, the file 0600)', () => {
    const dir = join(tempDir('members-told-'), 'config');
    expect(firstTime(dir, 'code cache refused: /a')).toBe(true);
    expect(firstTime(dir, 'code cache refused: /a')).toBe(false);
    expect(firstTime(dir, 'code cache refused: /b')).toBe(true);
    expect(firstTime(dir, 'code cache refused: /a')).toBe(false);
    if (process.platform !== 'win32') {
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, TOLD_ONCE_FILE)).mode & 0o777).toBe(0o600);
    }
  });

  it('tells a subject apart from one that holds it, or holds a line break', () => {
    const dir = tempDir('members-told-');
    expect(firstTime(dir, 'a\nb')).toBe(true);
    expect(firstTime(dir, 'a')).toBe(true);
    expect(firstTime(dir, 'b')).toBe(true);
    expect(firstTime(dir, 'a\nb')).toBe(false);
    expect(readFileSync(join(dir, TOLD_ONCE_FILE), 'utf8').split('\n')).toHaveLength(4);
  });

  it('where it cannot write (a file stands where the directory should), is true every time: told again rather than never', () => {
    const blocked = join(tempDir('members-told-'), 'config');
    writeFileSync(blocked, '');
    expect(firstTime(blocked, 'x')).toBe(true);
    expect(firstTime(blocked, 'x')).toBe(true);
  });
});
