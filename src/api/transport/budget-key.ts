/**
 * The shared rate budget's key of a token on a host (shared-budget.ts), in a
 * module of its own: node:crypto loads only when a run first consults the
 * budget, not in every run that builds a client (test/e2e/startup-load.test.ts).
 */
import { createHash } from 'node:crypto';

/** The budget's key of a token on a host: a hash, so that no file or row of the record holds the token. */
export function budgetKey(origin: string, token: string): string {
  return createHash('sha256').update(`${origin}\n${token}`).digest('hex').slice(0, 32);
}
