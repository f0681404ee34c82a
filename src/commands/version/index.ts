import type { Command } from 'commander';
import { registration } from '../../session/command-kit.js';
import { versionText } from '../../lib/version.js';

/** `members version`: as `--version`, for bug reports (bin/members.js answers both before the program loads). */
export const registerVersion = registration('Setup:', (program, runner) => {
  program.command('version')
    .description('Print the version, the Node.js version and the platform, one a line (for bug reports)')
    .action((_opts: unknown, cmd: Command) => {
      runner.session(cmd).io.stdout.write(versionText());
    });
});
