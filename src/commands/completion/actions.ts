import type { Command } from 'commander';
import type { Io } from '../../lib/io.js';
import { bashScript } from '../../completion/bash.js';
import { fishScript } from '../../completion/fish.js';
import { powershellScript } from '../../completion/powershell.js';
import { zshScript } from '../../completion/zsh.js';
import type { Shell } from '../../completion/shells.js';
import { completionSpec } from '../../completion/spec.js';

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
