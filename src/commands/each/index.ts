import { Option } from 'commander';
import { examples, lazyAction, registration } from '../shared/command-kit.js';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from '../shared/bulk/flags.js';

export const registerEach = registration('Everyday:', (program, runner) => {
  program.command('each')
    .description('Run a members command once per row of a CSV file, as one run ({column} placeholders)')
    .argument('<file>', 'a CSV file (, or ; separated, header row first), an xlsx workbook (its first sheet), or - for stdin')
    .argument('[command...]', 'the command and its arguments, after --; {Column} is the row\'s cell (case, accents and spaces ignored), {line} its line')
    .option('--dry-run', 'check every row and print the command each would run; send nothing')
    .option('--first <n>', 'run the first N rows only, show their results and stop (a canary); run again without it for the rest')
    .option('--max-rows <n>', 'refuse a file with more rows (exit 2)')
    .option('--concurrency <n>', `rows in flight at once, 1–${MAX_CONCURRENCY} (default ${DEFAULT_CONCURRENCY})`)
    .option('--only-failed', 'run only the rows whose result column says failed (the --out file of an earlier run)')
    .addOption(new Option('--halt <when>', 'what a failed row does to the rest: never (run them all), soon or now (start no new row)').choices(['now', 'soon', 'never']).default('never'))
    .addOption(new Option('--wait <duration>', 'when another run of the same command on the same file is under way (any machine of a team record), wait up to this long (90s, 15m, 2h) for it to end, then do what it left, before giving up with exit 10 (default 0: at once)'))
    // A row's own flags (--expire-in, --reason) are its command's, not each's: they pass through.
    .allowUnknownOption()
    .addHelpText('after', `
Every row is checked first, as its command checks its arguments, and every
product name of the file is looked up once: a bad row is listed with its line
and nothing is sent (exit 2). One question for the run on
a terminal (type the row count above 20 rows); --yes off one. Every change is
recorded under the run's id: \`members undo RUN\` reverses the run. Running the
same command on the same file again after a kill continues that run (same id,
one undo for both) and leaves out the rows done — from any machine when the
profile uses a team record. One run of a command on a file at a time: a second
one at once exits 10 naming the first's holder (or waits, --wait).
Each row's result is printed once it and the rows before it are done: csv,
ndjson and a piped table a line per row, and --out results.csv grows row by row,
so a kill leaves the rows done. Exit 7 when a row failed; --out results.csv then
feeds back with --only-failed.
${examples(
    'members each turma.csv -- magic-link {E-mail} --expire-in 7d --out links.csv',
    'members each pontos.csv -- scores set {E-mail} {Pontos} --reason "contest"',
    'members each turma.csv --dry-run -- students grant {E-mail} "Python Pro"',
    'members each links.csv --only-failed -- magic-link {E-mail} --expire-in 7d',
  )}`)
    .action(lazyAction(runner, () => import('./actions.js'), 'each'));
});
