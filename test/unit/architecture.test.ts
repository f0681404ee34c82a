/**
 * The layers of README "Architecture": what a module may import. (Cycles are
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

describe('layers', () => {
  it('the domain imports no command, no Session, no output, no prompter', () => {
    const offending = importers('domain').flatMap(([file, imports]) =>
      imports.filter((target) => /^(commands\/|output\/|session\.js|prompter\.js|main\.js|program\.js)/.test(target)).map((target) => `${file} → ${target}`));
    expect(offending).toEqual([]);
  });

  it('the API layer imports nothing above it', () => {
    const offending = importers('api').flatMap(([file, imports]) =>
      imports.filter((target) => /^(commands\/|domain\/|output\/|audit\/|session\.js|prompter\.js|main\.js|program\.js)/.test(target)).map((target) => `${file} → ${target}`));
    expect(offending).toEqual([]);
  });

  it('command modules share only command-kit.ts, views and bulk, never another command or the program', () => {
    const offending = importers('commands').flatMap(([file, imports]) => {
      const own = file.split('/')[1];
      return imports.filter((target) => {
        if (target === 'program.js') return true;
        const match = /^commands\/([^/]+)\//.exec(target);
        // Shared rooms: views, bulk (the --file forms of students commands, not a command of its own),
        // and the top-level modules of commands/ (command-kit, list-options).
        return match !== null && match[1] !== own && !['views', 'bulk'].includes(match[1] as string);
      }).map((target) => `${file} → ${target}`);
    });
    expect(offending).toEqual([]);
  });

  it('above api/, the transport is built by the Session alone and reached only through Api (no api.http)', () => {
    const above = sources(SRC).filter((file) => !relative(SRC, file).startsWith('api/') && !relative(SRC, file).startsWith('sandbox/'));
    const offending = above.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const values = /^import (?!type )[^;]*from '[./]+\/api\/http\.js'|import\('[./]+\/api\/http\.js'\)/m.test(text) && relative(SRC, file) !== 'session.ts';
      return [...(values ? ['imports the transport'] : []), ...(/\.http\.(send|redact|notice|url)\b/.test(text) ? ['reaches into api.http'] : [])]
        .map((what) => `${relative(SRC, file)} ${what}`);
    });
    expect(offending).toEqual([]);
  });

  it('the sandbox imports nothing of the client but the atomic file writer, so it cannot flatter it', () => {
    const offending = importers('sandbox').flatMap(([file, imports]) =>
      imports.filter((target) => !target.startsWith('sandbox/') && target !== 'atomic-file.js').map((target) => `${file} → ${target}`));
    expect(offending).toEqual([]);
  });

  it('no module changes the process when it is imported: V8 flags and zod\'s config are set in bin/members.js', () => {
    // schemas.ts's `compiled` turns zod's JIT on while it builds the report's row schema, and back as it found it.
    const restoring = /function compiled<T>\(build: \(\) => T\): T \{\s*const \{ jitless \} = z\.config\(\);\s*z\.config\(\{ jitless: false \}\);\s*try \{\s*return build\(\);\s*\} finally \{\s*z\.config\(\{ jitless \}\);\s*\}\s*\}/;
    // young-generation.ts sets a flag only when the hold it returns is asked to (at a streamed list's pages, by processIo),
    // through the V8 it was given: its one call.
    const hold = join(SRC, 'young-generation.ts');
    expect(readFileSync(hold, 'utf8').match(/setFlagsFromString\(/g)).toEqual(['setFlagsFromString(']);
    expect(readFileSync(hold, 'utf8')).toMatch(/^ {4}v8\.setFlagsFromString\(hold \? NO_GROWTH : GROWTH\);$/m);
    const offending = sources(SRC).filter((file) => file !== hold)
      .filter((file) => /setFlagsFromString|\bz\.config\(|__zod_globalConfig/.test(readFileSync(file, 'utf8').replace(restoring, '')))
      .map((file) => relative(SRC, file));
    expect(offending).toEqual([]);
    expect(readFileSync(join(SRC, '..', 'bin', 'members.js'), 'utf8')).toMatch(/require\('node:net'\);\nrequire\('node:diagnostics_channel'\);\nsetFlagsFromString\('--liftoff-only'\);\nsetFlagsFromString\('--verify-snapshot-checksum'\);\nglobalThis\.__zod_globalConfig = \{ \.\.\.globalThis\.__zod_globalConfig, jitless: true \};\n\nconst program = loadProgram/);
  });

  it('the audit log does not know the Session', () => {
    const offending = importers('audit').flatMap(([file, imports]) => imports.filter((target) => target === 'session.js').map((t) => `${file} → ${t}`));
    expect(offending).toEqual([]);
  });
});
