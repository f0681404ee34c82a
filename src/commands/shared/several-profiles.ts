/**
 * `--profiles a,b` and `--all-profiles` (issue 38, item 3): a read command
 * run once per profile, in parallel, each with its own session and client
 * (its own pace, rate limits and retries), into one output: a first column
 * `profile`, one table, one CSV with one header, one JSON array, one sheet.
 * A profile that fails is named on stderr with its error; the others still
 * print, and the exit code is the worst of theirs.
 */
import { CliError, ExitCode, UsageError, type ExitCodeValue } from '../../lib/errors.js';
import type { JsonRecord, Output, View } from '../../output/index.js';
import { batchesOf } from '../../lib/batches.js';
import type { Session } from '../../session/session.js';
import { withOutput } from '../../session/run-kit.js';

export interface ProfileChoice {
  /** `--profiles a,b` as given. */
  profiles?: string;
  /** `--all-profiles`. */
  all: boolean;
}

/** What one profile's run printed. */
interface Captured {
  view?: View;
  records: JsonRecord[];
}

/** The profiles to read: every stored one, or those named (each must exist; exit 2 otherwise). */
export function chosenProfiles(stored: readonly string[], choice: ProfileChoice): string[] {
  if (choice.all && choice.profiles !== undefined) throw new UsageError('--profiles and --all-profiles: give one of them');
  if (choice.all) {
    if (stored.length === 0) throw new UsageError('--all-profiles: no profile is stored; add one with `members auth login --profile NAME`');
    return [...stored];
  }
  const names = [...new Set((choice.profiles ?? '').split(',').map((name) => name.trim()).filter(Boolean))];
  if (names.length === 0) throw new UsageError('--profiles needs profile names, comma-separated (a,b)');
  const unknown = names.filter((name) => !stored.includes(name));
  if (unknown.length > 0) {
    throw new UsageError(`no stored profile ${unknown.map((name) => `"${name}"`).join(', ')}: the profiles are ${stored.map((name) => `"${name}"`).join(', ') || 'none'} (\`members auth list\`)`);
  }
  return names;
}

/** The worst of the exit codes: an interrupt first, then the highest. */
export function worstExitCode(codes: readonly ExitCodeValue[]): ExitCodeValue {
  if (codes.includes(ExitCode.interrupted)) return ExitCode.interrupted;
  return codes.reduce<ExitCodeValue>((worst, code) => (code > worst ? code : worst), ExitCode.ok);
}

/** The records, each with `profile` first (and ours, should a record have a field of that name). */
export function withProfile(profile: string, records: readonly JsonRecord[]): JsonRecord[] {
  return records.map((record) => Object.assign({ profile }, record, { profile }));
}

/** The view with a first column, PROFILE. */
export function profileView(view: View): View {
  return { ...view, renderTable: undefined, columns: [{ header: 'Profile', path: 'profile', kind: 'identifier' }, ...view.columns] };
}

export async function readProfiles(session: Session, choice: ProfileChoice, run: (session: Session) => Promise<void>): Promise<void> {
  const { profile, baseUrl, fields } = session.globals;
  if (profile !== undefined) throw new UsageError('--profile names one profile, --profiles or --all-profiles several: give one of them');
  if (baseUrl !== undefined) throw new UsageError('--base-url applies to one profile: drop it with --profiles or --all-profiles (each profile reads its own host)');
  const names = chosenProfiles((await session.store()).list().map(([name]) => name), choice);
  const captured = names.map((): Captured => ({ records: [] }));
  const sessions = names.map((name, index) => session.forProfile(name, capturingOutput(captured[index] as Captured)));
  try {
    const outcomes = await Promise.allSettled(sessions.map((one) => run(one)));
    // The command line itself is wrong (a bad flag, --chart): said once, as for one profile, not once per school.
    const sameUsage = commonUsageError(outcomes);
    if (sameUsage) throw sameUsage;
    const messages = await session.messages();
    const failures: ExitCodeValue[] = [];
    outcomes.forEach((outcome, index) => {
      if (outcome.status === 'fulfilled') return;
      const error = outcome.reason as Error;
      failures.push(error instanceof CliError ? error.exitCode : ExitCode.internal);
      messages.error(`profile "${names[index] as string}": ${error.message}`);
    });
    const view = captured.find((one) => one.view)?.view;
    const records = captured.flatMap((one, index) => withProfile(names[index] as string, one.records));
    if (view && failures.length < names.length) {
      // The profile column stays with --fields too: a row without it would not say which school it came from.
      const overrides = fields && !fields.includes('profile') ? { fields: ['profile', ...fields] } : {};
      await withOutput(session, (output) => output.list(records, profileView(view)), overrides);
    }
    if (failures.length > 0) {
      const failed = names.filter((_, index) => outcomes[index]?.status === 'rejected');
      const rest = failures.length < names.length ? 'the others were printed' : 'nothing was printed';
      throw new CliError(`${failed.length} of ${names.length} profiles failed (${failed.join(', ')}); ${rest}`, worstExitCode(failures));
    }
  } finally {
    await Promise.allSettled(sessions.map((one) => one.close()));
  }
}

/** The usage error every profile failed with, when they all failed with the same one. */
export function commonUsageError(outcomes: ReadonlyArray<PromiseSettledResult<unknown>>): UsageError | undefined {
  const errors = outcomes.map((outcome) => (outcome.status === 'rejected' ? outcome.reason as unknown : undefined));
  const [first] = errors;
  if (!(first instanceof UsageError)) return undefined;
  return errors.every((error) => error instanceof UsageError && error.message === first.message) ? first : undefined;
}

/** An Output that keeps what a profile's run prints, for the merged output. */
function capturingOutput(into: Captured): Output {
  return {
    async one(record, view) {
      into.view ??= view;
      into.records.push(record);
    },
    async list(records, view) {
      into.view ??= view;
      let count = 0;
      for await (const batch of batchesOf(records)) {
        into.records.push(...batch);
        count += batch.length;
      }
      return count;
    },
    async book() {
      throw new UsageError('a workbook with a chart is made for one profile: drop --profiles or --all-profiles, or --chart');
    },
    close: async () => undefined,
    abort: async () => undefined,
  };
}
