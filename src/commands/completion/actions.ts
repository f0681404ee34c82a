import type { Command } from 'commander';
import type { Io } from '../../context.js';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { powershellScript } from './powershell.js';
import { zshScript } from './zsh.js';
import type { Shell } from './shells.js';
import { completionSpec } from './spec.js';

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
