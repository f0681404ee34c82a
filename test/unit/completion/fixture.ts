/**
 * A small program shaped like the contract's, to test the generators and the
 * help groups apart from the real commands (which other work is changing).
 */
import { Command, Option } from 'commander';
import { registerCompletion } from '../../../src/commands/completion/index.js';
import type { Runner } from '../../../src/commands/shared/command-kit.js';

const noop = () => undefined;
const collect = (value: string, previous: string[]) => [...previous, value];
const runner: Runner = {
  session: () => {
    throw new Error('no session in the fixture');
  },
};

export function fixtureProgram(): Command {
  const program = new Command('members')
    .description('Administer a membership platform.')
    .version('1.2.3', '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .configureOutput({ getOutHelpWidth: () => 100, getErrHelpWidth: () => 100 })
    .exitOverride()
    .option('-p, --profile <name>', 'profile to use')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['table', 'json', 'ndjson', 'csv']).default('table'))
    .option('--json', 'same as -o json')
    .option('-q, --quiet', 'no notices')
    .option('--out <file>', 'write the result to FILE');

  // Each command in its section of the root help, as src/program.ts does for every registration.
  program.commandsGroup('Everyday:');
  const students = program.command('students').alias('student').description('Look up and change students');
  students.command('list').description('List students').option('--page <n>', 'page to fetch').option('--all', 'every page').action(noop);
  students.command('get').description('Show one student').argument('<student>', 'id or e-mail').action(noop);
  students.command('grant').description('Give a student a product')
    .argument('[student]').argument('[product_id]')
    .option('--file <file>', 'CSV file of grants').option('--dry-run', 'change nothing').action(noop);
  students.command('import').description('Create students from a CSV file').argument('<file...>', 'CSV files').action(noop);

  const subscriptions = program.command('subscriptions').description('List subscriptions');
  subscriptions.command('list').description('List subscriptions')
    .option('--status <list>', 'statuses, comma-separated')
    .option('--access <state>', 'active or inactive (no .choices(): the hint supplies them)')
    .option('--product <id>', 'product id')
    .action(noop);

  program.commandsGroup('Setup:');
  program.command('api').description('Raw request').argument('<path>', 'API path')
    .addOption(new Option('-X, --method <method>', 'HTTP method').choices(['GET', 'POST']).default('GET'))
    .option('-f, --field <key=value>', 'a field (repeatable)', collect, [])
    .action(noop);

  const auth = program.command('auth').description('Profiles and tokens');
  auth.command('switch').description('Make a profile active').argument('<name>', 'profile').action(noop);

  program.commandsGroup('Reports:');
  program.command('report').description('Partner reports').command('engaged-courses').description('Engaged courses').action(noop);
  program.command('secret', { hidden: true }).description('not for users').action(noop);
  program.commandsGroup(registerCompletion.section);
  registerCompletion.register(program, runner);
  program.addHelpCommand('help [command]', 'show help for a command');
  return program;
}
