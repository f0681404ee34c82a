import { Option } from 'commander';
import { examples, lazyAction, printsRecords, registration } from '../shared/command-kit.js';

/** `members record use|status|push`: where the profile's change record lives (issue 36). */
export const registerRecord = registration('Setup:', (program, runner) => {
  const record = program.command('record')
    .description('Choose where the change record lives: this machine (local) or the team\'s PostgreSQL, shared by the desk and cron')
    .addHelpText('after', `${examples(
      'members record use postgres://ana@db.example.com:5432/members?sslmode=verify-full',
      'members record status',
      'members record push --dry-run',
      'members record use local',
    )}
A team record holds every change of every machine: history, students show, undo and
the check of interrupted changes see the whole team's work, and runs that change many
students take leases there (members lock list). When it cannot be written, nothing is
sent (exit 11). MEMBERS_RECORD_URL (a URL, or local) overrides the profile for one run.
`);

  record.command('use')
    .description('Store where the profile in force keeps its change record: postgres://USER@HOST:PORT/DB (password to the OS keychain, else the config file) or local')
    .argument('<target>', 'postgres://USER[:PASSWORD]@HOST:PORT/DB[?sslmode=…], or local')
    .option('--password-stdin', 'read the database password from stdin')
    .option('--insecure-storage', 'store the password in plain text in the config file (mode 0600), not in the OS keychain')
    .addHelpText('after', `${examples(
      'members record use postgres://desk@db.example.com:5432/members?sslmode=verify-full   # asks for the password on a terminal',
      'echo "$PGPASS" | members record use postgres://cron@db:5432/members --password-stdin',
      'members record use local',
    )}
The database is reached and its tables created (or migrated) before the profile is
saved; TLS is as the URL's sslmode says (disable, prefer, require, verify-ca, verify-full).
`)
    .action(lazyAction(runner, () => import('./actions.js'), 'useRecord'));

  printsRecords(record.command('status'), ['profile', 'home', 'source', 'where', 'answers', 'schema', 'changes', 'problem'])
    .description('Say which record the profile uses, whether it answers, its schema version and how many changes it holds (exit 11 when it does not answer)')
    .addHelpText('after', examples('members record status', 'members record status -o json'))
    .action(lazyAction(runner, () => import('./actions.js'), 'recordStatus'));

  record.command('push')
    .description('Copy this machine\'s local history and product counts into the team record (each once: a second push adds nothing)')
    .addOption(new Option('--dry-run', 'count what would be copied; copy nothing'))
    .addHelpText('after', examples('members record push --dry-run', 'members record push'))
    .action(lazyAction(runner, () => import('./actions.js'), 'pushRecord'));
});
