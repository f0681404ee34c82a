/**
 * The product and course names of a whole `members each` run, resolved
 * before anything is sent: each row's command, checked, named them
 * (RowSession collects them); each distinct name is resolved here once,
 * against one read of each list (names.ts keeps it with the client, so the
 * rows then resolve them without a request). A name unknown or ambiguous
 * marks every row that gave it, with the message the command itself gives.
 */
import { UsageError } from '../../../lib/errors.js';
import { oneLine } from '../../../domain/bulk/engine.js';
import { resolveName, type NameRequest } from '../../../domain/names.js';
import type { Session } from '../../../session/session.js';

export interface NamingRow {
  names?: readonly NameRequest[];
  problem?: string;
}

export async function checkNames(session: Session, rows: readonly NamingRow[]): Promise<void> {
  const naming = rows.filter((row) => row.problem === undefined && (row.names?.length ?? 0) > 0);
  if (naming.length === 0) return;
  const api = await session.api();
  const answers = new Map<string, Promise<string | undefined>>();
  const answer = (request: NameRequest) => {
    const key = JSON.stringify([request.noun, request.input, request.argument, request.check === true]);
    let found = answers.get(key);
    if (!found) {
      found = resolveName(api, request).then(() => undefined, (error: unknown) => {
        if (error instanceof UsageError) return oneLine(error.message);
        throw error;
      });
      answers.set(key, found);
    }
    return found;
  };
  for (const row of naming) {
    const problems = (await Promise.all((row.names ?? []).map(answer))).filter((problem) => problem !== undefined);
    if (problems.length > 0) row.problem = problems.join('; ');
  }
}
