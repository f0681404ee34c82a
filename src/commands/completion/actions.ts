import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import type { Io } from '../../context.js';
import type { Session } from '../../session.js';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { powershellScript } from './powershell.js';
import { zshScript } from './zsh.js';
import { completionSpec, type Shell } from './spec.js';

/** The completion script of `program` for `shell`. */
export function completionScript(program: Command, shell: Shell): string {
  const spec = completionSpec(program);
  switch (shell) {
    case 'bash': return bashScript(spec);
    case 'zsh': return zshScript(spec);
    case 'fish': return fishScript(spec);
    case 'powershell': return powershellScript(spec);
  }
}

export function printCompletion(io: Io, program: Command, shell: Shell): void {
  io.stdout.write(completionScript(program, shell));
}

/**
 * Profile names, one per line: names only, never a token. Nothing when there
 * is no config file yet (and it is not created: a Tab press changes nothing).
 */
export async function printProfiles(session: Session): Promise<void> {
  const store = await session.store();
  if (!existsSync(store.path)) return;
  const names = store.list().map(([name]) => name).filter((name) => !/[\r\n]/.test(name));
  if (names.length) session.io.stdout.write(`${names.join('\n')}\n`);
}
