import type { Command } from 'commander';
import { examples, type Runner } from '../command-kit.js';
import type { HistoryFlags } from './actions.js';

export function registerHistory(program: Command, runner: Runner): void {
  program.command('history')
    .description('Show the changes made with this tool from this machine (the local audit log), newest first')
    .option('--student <student>', 'only changes to this student: as it was given (id, e-mail, doc:…, ref:…) or its id')
    .option('--since <date>', 'only changes on or after DATE (YYYY-MM-DD, local time)')
    .option('--limit <n>', 'only the N newest changes')
    .addHelpText('after', `${examples(
      'members history',
      'members history --student maria@example.com --since 2025-01-01',
      'members history --limit 20 -o json',
    )}
The log is audit.jsonl in the config directory (MEMBERS_CONFIG_DIR). Undo a grant,
a revoke or a delete with \`members undo ID\`.
`)
    .action(async (opts: HistoryFlags, cmd: Command) => {
      const { history } = await import('./actions.js');
      await history(runner.session(cmd), opts);
    });
}
