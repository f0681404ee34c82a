import { Argument, Command } from 'commander';
import { registration } from '../shared/command-kit.js';
import { COMPLETION_HELPERS } from '../../completion/complete.js';
import { SHELLS, helperCommand, type Shell } from '../../completion/shells.js';

const HELPED: Record<(typeof COMPLETION_HELPERS)[number], string> = {
  profiles: 'the stored profile names',
  undo: 'the audit ids that undo can take',
  products: 'the product ids and titles last read from the API',
  courses: 'the course ids and titles last read from the API',
};

/**
 * `members completion SHELL` prints a script generated from this very
 * program's command tree; the hidden `__complete-NAME` commands feed it what
 * only this machine knows (src/completion/complete.ts). None needs credentials or the network.
 */
export const registerCompletion = registration('Setup:', (program, runner) => {
  program.command('completion')
    .description('Print the shell completion script for bash, zsh, fish or PowerShell')
    .addArgument(new Argument('<shell>', 'shell to complete for').choices(SHELLS))
    .addHelpText('after', `
Install (once; then open a new shell):
  bash, with the bash-completion package (loaded on demand):
    mkdir -p ~/.local/share/bash-completion/completions
    members completion bash > ~/.local/share/bash-completion/completions/members
  bash, without it: add this line to ~/.bashrc
    eval "$(members completion bash)"
  zsh: in ~/.zshrc, before compinit, fpath=(~/.zfunc $fpath); then
    mkdir -p ~/.zfunc && members completion zsh > ~/.zfunc/_members
  fish:
    mkdir -p ~/.config/fish/completions
    members completion fish > ~/.config/fish/completions/members.fish
  PowerShell: add this line to $PROFILE
    members completion powershell | Out-String | Invoke-Expression

docs/completion.md says more (Oh My Zsh, macOS, what each Tab offers).
`)
    .action(async (shell: Shell, _opts: unknown, cmd: Command) => {
      const { printCompletion } = await import('./actions.js');
      printCompletion(runner.session(cmd).io, program, shell);
    });

  // bin/members.js answers these before the program loads; here for in-process runs (tests) and the same answers.
  for (const helper of COMPLETION_HELPERS) {
    program.command(helperCommand(helper), { hidden: true })
      .description(`Print ${HELPED[helper]}, one per line (for the completion scripts)`)
      .argument('[line]', 'the command line up to the cursor')
      .allowUnknownOption()
      .allowExcessArguments()
      .action(async (line: string | undefined, _opts: unknown, cmd: Command) => {
        try {
          const { io } = runner.session(cmd);
          const { runCompletionHelper } = await import('../../completion/complete.js');
          runCompletionHelper(helper, io.env, (text) => void io.stdout.write(text), line);
        } catch {
          // A completion must never print an error into the user's command line (a bad global option, say).
        }
      });
  }
});
