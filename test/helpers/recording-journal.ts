/** A Journal that writes down, in order, what it is told (begin, applied, failed, dropped), for tests of what sends and records changes. */
import type { Journal, PendingChange } from '../../src/audit/journal.js';

export function recordingJournal(command: string, id: string, steps: unknown[] = []): { journal: Journal; steps: unknown[] } {
  const journal: Journal = {
    async begin(entry) {
      steps.push(['begin', entry]);
      const change: PendingChange = {
        id,
        applied: async (details) => (steps.push(['applied', details]), id),
        failed: async (error) => void steps.push(['failed', (error as Error).message]),
        dropped: () => void steps.push(['dropped']),
      };
      return change;
    },
    command,
    with: () => journal,
    as: () => journal,
  };
  return { journal, steps };
}
