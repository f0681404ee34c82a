/** `members help environment` lists every variable the program reads (issue 31): a new one is documented on purpose. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HELP_TOPICS } from '../../src/commands/help/topics.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'sandbox' ? [] : sources(path);
    return /\.(ts|js)$/.test(entry.name) ? [path] : [];
  });
}

/** Names read as `env.NAME` or `env['NAME']` in src/ (but the sandbox, a server of its own) and bin/. */
function variablesRead(): string[] {
  const names = [join(ROOT, 'src'), join(ROOT, 'bin')].flatMap(sources).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/\benv(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g)].map((match) => match[1] ?? match[2] ?? ''));
  return [...new Set(names)].sort();
}

describe('members help environment', () => {
  it('names every environment variable the program reads', () => {
    const read = variablesRead();
    expect(read).toContain('MEMBERS_TOKEN');
    expect(read).toContain('XDG_CACHE_HOME');
    const text = HELP_TOPICS.environment!.text;
    expect(read.filter((name) => !new RegExp(`\\b${name}\\b`).test(text))).toEqual([]);
  });
});
