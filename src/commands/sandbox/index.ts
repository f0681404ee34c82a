import { Command } from 'commander';
import { examples, type Runner } from '../command-kit.js';
import type { SandboxFlags } from './actions.js';


export function registerSandbox(program: Command, runner: Runner): void {
  program.command('sandbox')
    .description('Run a local server that implements the whole API on seeded data')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <n>', 'port (0 picks a free one)', '8787')
    .option('--seed <n>', 'seed of the generated data', '1')
    .option('--students <n>', 'number of students to generate', '200')
    .option('--latency <duration>', 'delay added to every response (e.g. 20ms, 1s)')
    .option('--fail-rate <p>', 'fraction of requests answered 500/503 (0..1)')
    .option('--rate-limit <n>', 'requests per second before answering 429')
    .option('--data <file>', 'persist the state to this JSON file')
    .option('--login', 'store the sandbox as the profile "sandbox" and make it active')
    .addHelpText('after', examples(
      'members sandbox --login',
      'members sandbox --port 0 -o json',
      'members sandbox --students 100000 --latency 20ms --fail-rate 0.1 --rate-limit 50',
    ))
    .action(async (flags: SandboxFlags, cmd: Command) => {
      const { runSandbox } = await import('./actions.js');
      await runSandbox(runner.session(cmd), flags);
    });
}
