/**
 * The layers of docs/architecture.md "Layers": what a module may import. (Cycles are
 * `npm run cycles`, madge's job.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every module a file imports (static, dynamic, type-only), as a path relative to src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((match) => match[1] as string);
  return specifiers.map((specifier) => relative(SRC, resolve(dirname(file), specifier)).replace(/\\/g, '/'));
}

const importers = (folder: string) => sources(join(SRC, folder)).map((file) => [relative(SRC, file), importsOf(file)] as const);

/**
 * The room of a module: its top-level folder under src/, or the file itself (main, program); what
 * several commands share, src/commands/shared/, is a room of its own below the commands.
 */
const roomOf = (path: string) => (path.startsWith('commands/shared/') ? 'commands/shared' : path.split('/')[0]!.replace(/\.(ts|js)$/, ''));

/**
 * docs/architecture.md "Layers": each room imports only rooms of a lower rank. The sandbox stands
 * apart (its own rule below); lib/ holds the leaves every room may use.
 */
const RANK: Record<string, number> = {
  main: 10, entry: 9.5, program: 9, 'command-line': 8.5, commands: 8, completion: 7, 'commands/shared': 6.5, session: 6, domain: 4, audit: 3, api: 2, output: 2, config: 1, lib: 0,
};

describe('layers', () => {
  it('every src/ folder has a rank (a new room is placed in the table on purpose)', () => {
    const rooms = [...new Set(sources(SRC).map((file) => roomOf(relative(SRC, file).replace(/\\/g, '/'))))].filter((room) => room !== 'sandbox');
    expect(rooms.filter((room) => RANK[room] === undefined)).toEqual([]);
  });

  it('no room imports a room of its own rank or above it (commands may start the sandbox)', () => {
    const offending = sources(SRC).flatMap((file) => {
      const path = relative(SRC, file).replace(/\\/g, '/');
      const room = roomOf(path);
      if (room === 'sandbox') return [];
      return importsOf(file).filter((target) => {
        const other = roomOf(target);
        if (other === room) return false;
        if (other === 'sandbox') return room !== 'commands';
        return (RANK[other] ?? Infinity) >= (RANK[room] ?? -1);
      }).map((target) => `${path} → ${target}`);
    });
    expect(offending).toEqual([]);
  });

  it('command modules never import another command (what they share lives in commands/shared/)', () => {
    const offending = importers('commands').filter(([file]) => !file.startsWith('commands/shared/')).flatMap(([file, imports]) => {
      const own = file.split('/')[1];
      return imports.filter((target) => {
        const match = /^commands\/([^/]+)\//.exec(target);
        return match !== null && match[1] !== own && match[1] !== 'shared';
      }).map((target) => `${file} → ${target}`);
    });
    expect(offending).toEqual([]);
  });

  it('above api/, the transport is built by the Session alone and reached only through Api (no api.http)', () => {
    const above = sources(SRC).filter((file) => !relative(SRC, file).startsWith('api/') && !relative(SRC, file).startsWith('sandbox/'));
    const offending = above.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const values = /^import (?!type )[^;]*from '[./]+\/api\/transport\/http\.js'|import\('[./]+\/api\/transport\/http\.js'\)/m.test(text) && relative(SRC, file) !== 'session/session.ts';
      return [...(values ? ['imports the transport'] : []), ...(/\.http\.(send|redact|notice|url)\b/.test(text) ? ['reaches into api.http'] : [])]
        .map((what) => `${relative(SRC, file)} ${what}`);
    });
    expect(offending).toEqual([]);
  });

  it('the sandbox imports nothing of the client but the atomic file writer, so it cannot flatter it', () => {
    const offending = importers('sandbox').flatMap(([file, imports]) =>
      imports.filter((target) => !target.startsWith('sandbox/') && target !== 'lib/atomic-file.js').map((target) => `${file} → ${target}`));
    expect(offending).toEqual([]);
  });

  it('only bin/ sets process-wide switches (V8 flags, zod\'s config); src/lib/young-generation.ts holds its flag through the V8 it is given', () => {
    const hold = join(SRC, 'lib', 'young-generation.ts');
    const offending = sources(SRC).filter((file) => file !== hold)
      .filter((file) => /setFlagsFromString|\bz\.config\(|__zod_globalConfig/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));
    expect(offending).toEqual([]);
  });

});
