import { Option } from 'commander';
import { FLAVORS, PAGINATORS } from '../../sandbox/dialect.js';
import { examples, lazyAction, registration } from '../shared/command-kit.js';

export const registerSandbox = registration('Setup:', (program, runner) => {
  program.command('sandbox')
    .description('Run a local server that implements the whole API on seeded data')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <n>', 'port (0 picks a free one)', '8787')
    .option('--seed <n>', 'seed of the generated data', '1')
    .option('--students <n>', 'number of students to generate', '200')
    .option('--latency <duration>', 'delay added to every response (e.g. 20ms, 1s)')
    .option('--fail-rate <p>', 'fraction of requests answered 500/503 (0..1)')
    .option('--rate-limit <rate>', 'requests allowed before answering 429: N or N/s per second, N/min per minute (Laravel\'s throttle); sends X-RateLimit-* headers')
    .addOption(new Option('--flavor <name>', 'shapes of the answers: default, or laravel (what a Laravel 8 app sends; see src/sandbox/README.md)')
      .choices(FLAVORS).default('default'))
    .addOption(new Option('--paginator <kind>', 'lists as length-aware (paginate) or simple (simplePaginate) pages').choices(PAGINATORS))
    .addOption(new Option('--per-page-ignored <n>', 'every list page holds n records whatever per_page asks, and meta.per_page says n (a controller calling ->paginate(15))')
      .conflicts('perPageMax'))
    .option('--per-page-max <n>', 'a per_page above n is clamped to n, without a 422; meta.per_page says the clamped value (->paginate(min($request->per_page, 50)))')
    .option('--server-tz <zone>', 'time zone of the server, for the laravel flavor\'s dates (default Asia/Tokyo)')
    .option('--maintenance', 'start in maintenance mode: 503 to every request (php artisan down)')
    .option('--data <file>', 'persist the state to this JSON file; every change is saved before it is answered')
    .option('--login', 'store the sandbox as the profile "sandbox" and make it active')
    .addHelpText('after', examples(
      'members sandbox --login',
      'members sandbox --port 0 -o json',
      'members sandbox --students 100000 --latency 20ms --fail-rate 0.1 --rate-limit 50',
      'members sandbox --flavor laravel --paginator simple --server-tz America/Sao_Paulo --rate-limit 60/min',
      'members sandbox --students 2000 --per-page-ignored 15',
    ))
    .action(lazyAction(runner, () => import('./actions.js'), 'runSandbox'));
});
