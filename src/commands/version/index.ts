import type { Command } from 'commander';
import { examples, printsRecords, registration } from '../shared/command-kit.js';
import { versionRecord } from '../../lib/version.js';
import { VERSION_VIEW } from './view.js';

/** `members version`: as `--version`, for bug reports (bin/members.js answers both before the program loads). */
export const registerVersion = registration('Setup:', (program, runner) => {
  printsRecords(program.command('version'), ['version', 'node', 'platform'])
    .description('Print the version, the Node.js version and the platform, one a line (for bug reports)')
    .addHelpText('after', examples('members version', 'members version -o json    # {"version": …, "node": …, "platform": …}'))
    .action(async (_opts: unknown, cmd: Command) => {
      const output = await runner.session(cmd).output();
      await output.one(versionRecord(), VERSION_VIEW);
      await output.close();
    });
});
