import { examples, lazyAction, registration } from '../shared/command-kit.js';

export const registerAuth = registration('Setup:', (program, runner) => {
  const auth = program.command('auth').description('Log in, switch and inspect profiles and their tokens')
    .addHelpText('after', examples(
      'members auth login --base-url https://members.example.com',
      'members auth status',
      'members auth switch production',
    ));

  auth.command('login')
    .description('Store a profile: base URL, and tokens in the OS keychain where one answers, else in the config file (tokens never come from flags)')
    .option('--token-stdin', 'read the API token from stdin')
    .option('--no-verify', 'store without checking the token against the API')
    .option('--activate', 'make this profile the active one')
    .option('--insecure-storage', 'store the tokens in plain text in the config file (mode 0600), not in the OS keychain')
    .addHelpText('after', examples(
      'echo "$TOKEN" | members auth login --profile production --base-url https://members.example.com --token-stdin',
      'MEMBERS_TOKEN=… members auth login --profile staging --base-url https://staging.example.com --activate',
      'MEMBERS_TOKEN=… members auth login --base-url https://members.example.com --insecure-storage   # a server\'s cron job',
    ))
    .action(lazyAction(runner, () => import('./actions.js'), 'login'));

  auth.command('status')
    .description('Show every profile, its masked tokens, where they are stored, and whether the token in force works')
    .option('--offline', 'do not check the token against the API')
    .addHelpText('after', examples('members auth status', 'members auth status --offline -o json'))
    .action(lazyAction(runner, () => import('./actions.js'), 'status'));

  auth.command('switch')
    .description('Make another stored profile the active one')
    .argument('<name>', 'profile name')
    .addHelpText('after', examples('members auth switch production'))
    .action(lazyAction(runner, () => import('./actions.js'), 'switchProfile'));

  auth.command('logout')
    .description("Forget a profile's tokens, in the OS keychain or the config file (the profile in force unless --profile)")
    .addHelpText('after', examples('members auth logout', 'members auth logout --profile staging'))
    .action(lazyAction(runner, () => import('./actions.js'), 'logout'));

  auth.command('token')
    .description('Print the API token of the profile in force (for scripts)')
    .addHelpText('after', examples('curl -H "Authorization: Bearer $(members auth token)" …'))
    .action(lazyAction(runner, () => import('./actions.js'), 'printToken'));
});
