/** `members sync` (contract §17): a plan from a file, or a saved plan applied. */
import type { Session } from '../../session/session.js';
import { syncRequest, type SyncFlags } from './flags.js';

export async function sync(session: Session, flags: SyncFlags): Promise<void> {
  const request = syncRequest(flags);
  if (request.kind === 'apply') {
    const { applySavedPlan } = await import('./saved-plan.js');
    return applySavedPlan(session, request);
  }
  const { syncFromFile } = await import('./run.js');
  return syncFromFile(session, request);
}
