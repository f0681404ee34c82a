/**
 * `members __complete-products LINE` and `__complete-courses LINE` (src/completion/complete.ts):
 * ids with titles from the catalog cache (config/catalog-cache.ts) of the API
 * the command line being completed would use; offline.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lineSettings, runCompletionHelper, SHORT_OPTIONS_WITH_VALUE } from '../../../src/completion/complete.js';
import { catalogPath, readCatalog, saveCatalog } from '../../../src/config/catalog-cache.js';
import { buildProgram } from '../../../src/program.js';
import { fakeIo } from '../../helpers/fake-io.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'members-catalog-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const STAGING = 'https://staging.example.com';
const PRODUCTION = 'https://members.example.com/api-root';

function complete(helper: 'products' | 'courses', line: string, env: Record<string, string> = {}): string[] {
  let out = '';
  runCompletionHelper(helper, { MEMBERS_CONFIG_DIR: dir, ...env }, (text) => (out += text), line);
  return out.split('\n').filter(Boolean);
}

describe('lineSettings: -p and --base-url as commander would read the line', () => {
  it('reads every spelling of the two options, the last one winning, and nothing after --', () => {
    expect(lineSettings('members -p staging students grant ana ')).toEqual({ profile: 'staging' });
    expect(lineSettings('members students grant --profile staging ana ')).toEqual({ profile: 'staging' });
    expect(lineSettings('members --profile=staging students')).toEqual({ profile: 'staging' });
    expect(lineSettings('members -pstaging students')).toEqual({ profile: 'staging' });
    expect(lineSettings('members -qp staging students')).toEqual({ profile: 'staging' });
    expect(lineSettings('members -yqpstaging students')).toEqual({ profile: 'staging' });
    expect(lineSettings("members -p 'staging' students")).toEqual({ profile: 'staging' });
    expect(lineSettings('members -p a -p b students')).toEqual({ profile: 'b' });
    expect(lineSettings('members --base-url https://x.example.com students')).toEqual({ baseUrl: 'https://x.example.com' });
    expect(lineSettings('members --base-url=https://x.example.com students')).toEqual({ baseUrl: 'https://x.example.com' });
    // -o takes the rest of the word as its value: `-op` is `-o p`, no profile.
    expect(lineSettings('members -op students')).toEqual({});
    expect(lineSettings('members -o json students')).toEqual({});
    expect(lineSettings('members api -- -p x')).toEqual({});
  });

  it('knows every short option of the program that takes a value', () => {
    const letters = new Set<string>();
    const visit = (command: Command) => {
      for (const option of command.options) if (option.short && (option.required || option.optional)) letters.add(option.short.slice(1));
      command.commands.forEach(visit);
    };
    visit(buildProgram({ io: fakeIo().io }).program);
    expect([...letters].sort()).toEqual([...SHORT_OPTIONS_WITH_VALUE].sort());
  });
});

describe('__complete-products and __complete-courses', () => {
  beforeEach(() => {
    writeFileSync(join(dir, 'config.json'), JSON.stringify({
      active: 'production',
      profiles: { production: { base_url: `${PRODUCTION}/` }, staging: { base_url: STAGING } },
    }));
    saveCatalog(dir, PRODUCTION, 'products', [{ id: 'p-1', title: 'Python Pro' }, { id: 'p-2', title: 'Excel\u001b[31m Avançado\tVitalício' }]);
    saveCatalog(dir, PRODUCTION, 'courses', [{ id: '17', title: 'Módulo 1' }]);
    saveCatalog(dir, STAGING, 'products', [{ id: 's-1', title: 'Staging product' }, { id: 'two words', title: 'not a plain id' }]);
  });

  it('offers the ids of the API the line would use, each with its title (tab-separated, made printable)', () => {
    expect(complete('products', 'members students grant ana ')).toEqual(['p-1\tPython Pro', 'p-2\tExcel Avançado Vitalício']);
    expect(complete('courses', 'members courses get ')).toEqual(['17\tMódulo 1']);
  });

  it('follows the precedence of a run: --base-url, MEMBERS_BASE_URL, -p, MEMBERS_PROFILE, the active profile', () => {
    const staging = ['s-1\tStaging product'];
    expect(complete('products', 'members -p staging students grant ana ')).toEqual(staging);
    expect(complete('products', 'members students grant ana ', { MEMBERS_PROFILE: 'staging' })).toEqual(staging);
    expect(complete('products', 'members students grant ana ', { MEMBERS_BASE_URL: STAGING })).toEqual(staging);
    expect(complete('products', 'members -p staging students grant ana ', { MEMBERS_BASE_URL: `${PRODUCTION}/` })).toHaveLength(2);
    expect(complete('products', `members --base-url ${STAGING}/ students grant ana `, { MEMBERS_PROFILE: 'production' })).toEqual(staging);
  });

  it('offers nothing for an API never listed, an unknown profile, no config, or a broken cache', () => {
    expect(complete('courses', 'members -p staging courses get ')).toEqual([]);
    expect(complete('products', 'members -p nobody students grant ana ')).toEqual([]);
    writeFileSync(catalogPath(dir), '{"apis": [');
    expect(complete('products', 'members students grant ana ')).toEqual([]);
    rmSync(join(dir, 'config.json'));
    expect(complete('products', 'members students grant ana ')).toEqual([]);
  });
});

describe('the catalog cache', () => {
  it('is private (0600), keyed by the base URL as the client reads it, and rewritten only when the list changed', () => {
    saveCatalog(dir, 'https://Members.Example.com/', 'products', [{ id: 'a', title: 'A' }], new Date('2026-01-01T00:00:00Z'));
    expect(statSync(catalogPath(dir)).mode & 0o777).toBe(0o600);
    expect(readCatalog(dir, 'https://members.example.com', 'products')).toEqual([{ id: 'a', title: 'A' }]);
    const before = readFileSync(catalogPath(dir), 'utf8');
    saveCatalog(dir, 'https://members.example.com', 'products', [{ id: 'a', title: 'A' }], new Date('2026-02-01T00:00:00Z'));
    expect(readFileSync(catalogPath(dir), 'utf8')).toBe(before);
    saveCatalog(dir, 'https://members.example.com', 'products', [{ id: 'b', title: 'B' }], new Date('2026-02-01T00:00:00Z'));
    expect(readCatalog(dir, 'https://members.example.com', 'products')).toEqual([{ id: 'b', title: 'B' }]);
  });

  it('keeps at most 1000 items per list, so a Tab stays instant', () => {
    saveCatalog(dir, STAGING, 'products', Array.from({ length: 1500 }, (_, i) => ({ id: `p${i}`, title: `P ${i}` })));
    expect(readCatalog(dir, STAGING, 'products')).toHaveLength(1000);
  });

  it('keeps the 20 APIs used last', () => {
    for (let i = 0; i < 25; i++) saveCatalog(dir, `https://api${i}.example.com`, 'courses', [{ id: 'c', title: 'C' }], new Date(Date.UTC(2026, 0, 1, 0, i)));
    expect(readCatalog(dir, 'https://api24.example.com', 'courses')).toHaveLength(1);
    expect(readCatalog(dir, 'https://api5.example.com', 'courses')).toHaveLength(1);
    expect(readCatalog(dir, 'https://api4.example.com', 'courses')).toEqual([]);
  });

  it('a file it cannot write is no error: completion is a convenience', () => {
    writeFileSync(join(dir, 'a-file'), '');
    expect(() => saveCatalog(join(dir, 'a-file', 'below'), STAGING, 'products', [{ id: 'a', title: 'A' }])).not.toThrow();
    expect(readCatalog(join(dir, 'a-file', 'below'), STAGING, 'products')).toEqual([]);
  });
});
