/**
 * Runs the real shells' completion machinery on a generated script and
 * returns the candidates they offer, in order.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ZSH_CAPTURE = fileURLToPath(new URL('./zsh-capture.zsh', import.meta.url));

/**
 * Sources SCRIPT, sets COMP_* as bash would for LINE and its PIECES (the last one is under the cursor), calls
 * _members, prints COMPREPLY.
 */
const BASH_DRIVER = `
source "$1" || exit 90
COMP_LINE=$2
shift 2
COMP_WORDS=("$@")
COMP_CWORD=$(( $# - 1 ))
COMP_POINT=\${#COMP_LINE}
_members || exit 91
printf '%s\\n' "\${COMPREPLY[@]}"
`;

/**
 * The same, printing instead the options the completion function set with
 * `compopt` (a builtin that works only under readline, hence recorded here).
 */
const BASH_COMPOPT_DRIVER = `
compopt() { printf 'compopt %s\\n' "$*"; }
${BASH_DRIVER.replace(`printf '%s\\n' "\${COMPREPLY[@]}"`, '')}
`;

/**
 * Whether the real-shell tests of `shell` can run. In CI (MEMBERS_REQUIRE_SHELLS=1,
 * set by .ci/run, which installs zsh and fish) a missing shell fails instead of skipping.
 */
export function hasShell(shell: string): boolean {
  const found = spawnSync('sh', ['-c', `command -v ${shell}`], { stdio: 'ignore' }).status === 0;
  if (!found && process.env.MEMBERS_REQUIRE_SHELLS === '1') {
    throw new Error(`${shell} is required for the completion tests (MEMBERS_REQUIRE_SHELLS=1): install it, e.g. apt-get install ${shell}`);
  }
  return found;
}

function lines(result: ReturnType<typeof spawnSync>, what: string): string[] {
  if (result.status !== 0) {
    throw new Error(`${what} exited with ${result.status}: ${String(result.stderr)}`);
  }
  return String(result.stdout).split('\n').filter((line) => line !== '');
}

/**
 * The non-blank characters of bash's COMP_WORDBREAKS (the default, without bash-completion). The quotes are in it
 * too, but quote instead of breaking.
 */
const WORD_BREAKS = '@><=;|&(:';

/**
 * A word as bash puts it in COMP_WORDS: cut where a run of word-break characters (outside quotes, unescaped)
 * starts or ends, e.g. `ana@example.com` → `ana`, `@`, `example.com`.
 */
export function bashPieces(word: string): string[] {
  const pieces: string[] = [];
  let piece = '';
  let breaking = false;
  let quote = '';
  for (let i = 0; i < word.length; i++) {
    const char = word[i] as string;
    const isBreak = !quote && WORD_BREAKS.includes(char);
    if (piece && isBreak !== breaking) {
      pieces.push(piece);
      piece = '';
    }
    breaking = isBreak;
    piece += char;
    if (quote) {
      if (char === quote) quote = '';
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === '\\' && i + 1 < word.length) {
      piece += word[++i];
    }
  }
  return [...pieces, piece];
}

/**
 * bash: the words typed, e.g. ['members', 'students', ''] for `members students <Tab>`, split into COMP_WORDS as
 * bash splits them (bashPieces); the cursor is at the end of the last one.
 */
export function bashComplete(script: string, words: string[], env: NodeJS.ProcessEnv = {}): string[] {
  return lines(runBash(BASH_DRIVER, script, words, env), `bash completion of ${JSON.stringify(words)}`);
}

/** The `compopt` calls bash completion makes for WORDS, e.g. ['-o nospace'] inside a comma list. */
export function bashCompopt(script: string, words: string[], env: NodeJS.ProcessEnv = {}): string[] {
  return lines(runBash(BASH_COMPOPT_DRIVER, script, words, env), `bash completion of ${JSON.stringify(words)}`)
    .map((line) => line.replace(/^compopt /, ''));
}

function runBash(driver: string, script: string, words: string[], env: NodeJS.ProcessEnv) {
  return spawnSync('bash', ['--norc', '--noprofile', '-c', driver, 'bash', script, words.join(' '), ...words.flatMap(bashPieces)], {
    encoding: 'utf8', env: { PATH: process.env.PATH, ...env }, timeout: 20_000,
  });
}

/** fish: `complete -C LINE`; candidates without their descriptions, unless asked (`value<TAB>description`). */
export function fishComplete(script: string, line: string, env: NodeJS.ProcessEnv = {}, options: { descriptions?: boolean } = {}): string[] {
  const result = spawnSync('fish', ['--no-config', '-c', 'source $argv[1]; and complete -C $argv[2]', script, line], {
    encoding: 'utf8', env: { PATH: process.env.PATH, HOME: tmpdir(), ...env }, timeout: 20_000,
  });
  const candidates = lines(result, `fish completion of ${JSON.stringify(line)}`);
  return options.descriptions ? candidates : candidates.map((candidate) => candidate.split('\t')[0] ?? '');
}

/** zsh: the matches compinit's functions pass to compadd after typing LINE and Tab in an interactive zsh. */
export function zshComplete(script: string, line: string, env: NodeJS.ProcessEnv = {}): string[] {
  const home = mkdtempSync(join(tmpdir(), 'members-zsh-'));
  try {
    const result = spawnSync('zsh', ['-f', ZSH_CAPTURE, script, line], {
      encoding: 'utf8', env: { PATH: process.env.PATH, HOME: home, ZDOTDIR: home, TERM: 'dumb', ...env }, timeout: 20_000,
    });
    return lines(result, `zsh completion of ${JSON.stringify(line)}`);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** A directory holding an executable `members` that runs `body` (sh); for PATH. */
export function fakeMembersDir(body: string): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'members-bin-'));
  const file = join(dir, 'members');
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
