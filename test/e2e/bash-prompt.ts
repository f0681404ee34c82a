/**
 * bash completion as a person meets it: an interactive bash on a pseudo-terminal (util-linux `script`), where
 * readline splits the line into COMP_WORDS at COMP_WORDBREAKS and inserts or lists what the script offers.
 * The unit tests' driver sets COMP_WORDS itself; only this shows what readline does with them.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shellInTerminal, shellQuote, tempDir } from './harness.js';

/** Debian's bash-completion package, which takes `@` out of COMP_WORDBREAKS (shopt -u hostcomplete). */
const BASH_COMPLETION = '/usr/share/bash-completion/bash_completion';

/**
 * Whether the prompt tests can run with the bash-completion package too; in CI (MEMBERS_REQUIRE_SHELLS=1, set
 * by .ci/run, which installs it) its absence fails instead of skipping.
 */
export function hasBashCompletion(): boolean {
  const found = existsSync(BASH_COMPLETION);
  if (!found && process.env.MEMBERS_REQUIRE_SHELLS === '1') {
    throw new Error(`${BASH_COMPLETION} is required for the completion tests (MEMBERS_REQUIRE_SHELLS=1): apt-get install bash-completion`);
  }
  return found;
}

export interface BashTab {
  /** The command line after one Tab. */
  inserted: string;
  /** What readline lists on a second Tab (the script's COMPREPLY then), [] when it lists nothing. */
  listed: string[];
  /** The terminal's output, the listing included. */
  screen: string;
}

/**
 * Types LINE at an interactive bash that sourced SCRIPT (after bash-completion, with `withBashCompletion`), then
 * Tab; then, on a fresh line, LINE and Tab Tab. A key bound with `bind -x` prints readline's line.
 */
export async function bashTab(script: string, line: string, options: { env: Record<string, string | undefined>; withBashCompletion: boolean }): Promise<BashTab> {
  const dir = tempDir('members-bash-prompt-');
  const listed = join(dir, 'listed');
  const rc = join(dir, 'bashrc');
  writeFileSync(rc, [
    "PS1='$ '",
    ...(options.withBashCompletion ? [`source ${shellQuote(BASH_COMPLETION)}`] : []),
    `source ${shellQuote(script)}`,
    // The listing readline shows is the COMPREPLY of the call with COMP_TYPE ? (63).
    'eval "__recorded$(declare -f _members)"',
    `_members() { __recorded_members "$@"; [[ $COMP_TYPE == 63 ]] && printf '%s\\n' "\${COMPREPLY[@]}" > ${shellQuote(listed)}; return 0; }`,
    `bind -x '"\\C-x\\C-p": printf "\\nLINE<%s>\\n" "$READLINE_LINE"'`,
    '',
  ].join('\n'));
  const session = shellInTerminal(`exec bash --rcfile ${shellQuote(rc)} -i`, {
    env: { ...options.env, HOME: dir, INPUTRC: '/dev/null', TERM: 'dumb' },
    columns: 200,
  });
  const shown = (count: number) => new RegExp(`(?:LINE<[^\\n]*>\\r?\\n[\\s\\S]*){${count}}`);
  try {
    await session.waitFor(/\$ $/m);
    session.type(`${line}\t\x18\x10`);
    await session.waitFor(shown(1));
    session.type(`\x15${line}\t\t\x18\x10`);
    await session.waitFor(shown(2));
    session.type('\x15exit\r');
    await session.exited;
    const screen = session.output();
    return {
      inserted: /LINE<([^\n]*)>\r?\n/.exec(screen)?.[1] ?? '',
      listed: existsSync(listed) ? readFileSync(listed, 'utf8').split('\n').filter((entry) => entry !== '') : [],
      screen,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
