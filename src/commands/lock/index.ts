import { examples, lazyAction, printsRecords, registration } from '../shared/command-kit.js';

/** `members lock list|break`: the leases runs take on what they change (issue 36). */
export const registerLock = registration('Setup:', (program, runner) => {
  const lock = program.command('lock')
    .description('List the leases of runs that change many students, or end one whose run is gone')
    .addHelpText('after', `${examples('members lock list', 'members lock break l3f9c2e4d --reason "cron server rebooted mid-sync"')}
A sync, a bulk file, subscriptions extend and students transfer take a lease on the
platform and the products they may change before they read the state; a second run
whose scope overlaps waits (--wait DURATION) or exits 10 naming the holder. A lease
whose run died expires on its own within 30 s.
`);

  printsRecords(lock.command('list'), ['id', 'base_url', 'products', 'user', 'host', 'pid', 'command', 'since', 'expires'])
    .description('Show the live leases of the change record in force: who holds what, since when, until when')
    .addHelpText('after', examples('members lock list', 'members lock list -o json'))
    .action(lazyAction(runner, () => import('./actions.js'), 'listLocks'));

  lock.command('break')
    .description('End a lease whoever holds it (recorded, with its reason); the run holding it stops at its next renewal')
    .argument('<id>', 'the lease id (members lock list)')
    .requiredOption('--reason <text>', 'why (kept in the change record)')
    .addHelpText('after', examples('members lock break l3f9c2e4d --reason "cron server rebooted mid-sync"'))
    .action(lazyAction(runner, () => import('./actions.js'), 'breakLock'));
});
