/** `members sync` (contract §21): a plan from a file, or a saved plan applied. */
import type { Session } from '../../session/session.js';
import { syncRequest, type SyncFlags } from '../../session/sync/flags.js';

export async function sync(session: Session, flags: SyncFlags): Promise<void> {
  const request = syncRequest(flags);
  if (request.kind === 'apply') {
    const { applySavedPlan } = await import('../../session/sync/saved-plan.js');
    return applySavedPlan(session, request);
  }
  const { syncFromFile } = await import('../../session/sync/run.js');
  return syncFromFile(session, request);
}
