/**
 * `members completion --help` gives the install steps for each shell (issue 31): each, run as written in a fresh
 * HOME, makes Tab work in that shell (bash with and without the bash-completion package, zsh, fish).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeMembersDir, hasShell } from '../unit/completion/shells.js';
import { hasBashCompletion } from './bash-prompt.js';
import { BIN, run, tempDir } from './harness.js';

let steps: Map<string, { heading: string; commands: string[] }>;
let bin: ReturnType<typeof fakeMembersDir>;
let home: string;

/** The Install section of the help: each shell's heading (up to its first comma or colon) and its commands. */
function installSteps(help: string) {
  const section = help.slice(help.indexOf('\nInstall')).split('\n\n')[0]?.split('\n').slice(2) ?? [];
  const found = new Map<string, { heading: string; commands: string[] }>();
  let current: { heading: string; commands: string[] } | undefined;
  for (const line of section) {
    if (/^ {2}\S/.test(line)) {
      current = { heading: line.trim(), commands: [] };
      found.set(line.trim().replace(/:.*$/, ''), current);
    } else current?.commands.push(line.trim());
  }
  return found;
}

const step = (name: string) => {
  const found = steps.get(name);
  if (!found) throw new Error(`no install step for ${name} in: ${[...steps.keys()].join(' | ')}`);
  return found;
};

function shell(command: string, args: string[], extra: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(command, args, {
    encoding: 'utf8', timeout: 20_000,
    env: { PATH: `${bin.dir}:${process.env.PATH}`, HOME: home, ZDOTDIR: home, TERM: 'dumb', MEMBERS_NO_UPDATE_NOTIFIER: '1', ...extra },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs a step's commands as a person would paste them. */
const install = (name: string) => {
  const result = shell('sh', ['-c', step(name).commands.join('\n')]);
  expect(result.code, result.stderr).toBe(0);
};

beforeAll(async () => {
  const help = await run(['completion', '--help']);
  expect(help.code).toBe(0);
  steps = installSteps(help.stdout);
  bin = fakeMembersDir(`exec "${process.execPath}" "${BIN}" "$@"`);
});

afterAll(() => bin?.cleanup());

describe('members completion --help: the install steps work', () => {
  beforeAll(() => {
    home = tempDir('members-completion-home-');
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('names every shell', () => {
    expect([...steps.keys()]).toEqual(['bash, with the bash-completion package (loaded on demand)', 'bash, without it', 'zsh', 'fish', 'PowerShell']);
  });

  it.runIf(hasShell('bash'))('bash without bash-completion: the line for ~/.bashrc', () => {
    expect(step('bash, without it').heading).toContain('~/.bashrc');
    writeFileSync(join(home, '.bashrc'), `${step('bash, without it').commands.join('\n')}\n`);
    const result = shell('bash', ['-i', '-c', 'complete -p members']);
    expect(result.stdout.trim()).toBe('complete -F _members members');
  });

  it.runIf(hasShell('bash') && hasBashCompletion())('bash with bash-completion: the file it loads on demand', () => {
    install('bash, with the bash-completion package (loaded on demand)');
    const result = shell('bash', ['--norc', '-c', 'source /usr/share/bash-completion/bash_completion; __load_completion members; complete -p members']);
    expect(result.stdout.trim()).toBe('complete -F _members members');
  });

  it.runIf(hasShell('zsh'))('zsh: the fpath line of ~/.zshrc, then the file', () => {
    const fpath = /fpath=\([^)]*\)/.exec(step('zsh').heading)?.[0] ?? '';
    expect(fpath).not.toBe('');
    writeFileSync(join(home, '.zshrc'), `${fpath}\nautoload -Uz compinit && compinit -u\n`);
    install('zsh');
    expect(existsSync(join(home, '.zfunc', '_members'))).toBe(true);
    const result = shell('zsh', ['-i', '-c', 'print -r -- $_comps[members]']);
    expect(result.stdout.trim()).toBe('_members');
  });

  it.runIf(hasShell('fish'))('fish: the file fish loads by itself', () => {
    install('fish');
    expect(readFileSync(join(home, '.config', 'fish', 'completions', 'members.fish'), 'utf8')).toContain('complete -c members');
    const result = shell('fish', ['-c', 'complete -C "members stud"']);
    expect(result.stdout.split('\n')[0]).toMatch(/^students\b/);
  });
});
