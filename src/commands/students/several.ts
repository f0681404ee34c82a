/**
 * `members students grant STUDENT P1 P2 …` and `members students revoke
 * STUDENT P1 P2 …` (issue 30): several products of one student in one command
 * (a bundle bought at once, a refunded combo).
 *
 * Everything that can refuse runs before the first change: the student and
 * every product are resolved (the product list is read once, so that the
 * question and the results name each product by its title), and what each
 * product would do is read with GETs only. Then ONE confirmation lists them
 * all — a revoke always asks (as one revoke does), a grant only for the
 * renewals it would make — and each product is applied in turn, with one
 * result line and one audit record per change. The end is a bulk run's: exit
 * 0 when every product holds, 7 when some failed (the others were applied),
 * 6 when every failure was transient.
 */
import { parseStudentKey } from '../../api/endpoints/student-key.js';
import { accessGap, checkProductId, grantDates, grantToStudent, revokeFromStudent, type ChangeOutcome } from '../../domain/changes.js';
import { resetsStatus, statusResetNote } from '../../domain/grant-status.js';
import { resolveProduct, type Named } from '../../domain/names.js';
import { resolveStudent, studentLabel, type ResolvedStudent } from '../../domain/resolve.js';
import { AuthError, BulkFailedError, CliError, ExitCode, TransientError, UsageError } from '../../lib/errors.js';
import { plural } from '../../lib/values.js';
import { assertFieldsBeforeChange } from '../../output/fields.js';
import type { JsonRecord } from '../../output/view.js';
import { withOutput } from '../../session/run-kit.js';
import type { Session } from '../../session/session.js';
import { openJournal, type Journal } from '../../audit/index.js';
import { SEVERAL_VIEW } from '../shared/views/subscriptions.js';

/** One line of the result per product. */
interface ProductResult extends JsonRecord {
  student: string;
  product_id: string;
  product: string;
  result: ChangeOutcome['result'] | 'failed';
  message: string;
}

const RESULT_FIELDS = ['student', 'product_id', 'product', 'result', 'message'];

/** `"Python Pro" (5f1c…)`: how questions and results name a product. */
const named = (product: Named) => (product.title ? `"${product.title}" (${product.id})` : product.id);

/** `"A" (1), "B" (2) and "C" (3)` */
function listed(products: readonly Named[]): string {
  const names = products.map(named);
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

export interface SeveralGrantFlags {
  accession?: string;
  expiration?: string;
  reason?: string;
  renew?: boolean;
  includeStatusChanges?: boolean;
}

export async function grantSeveral(session: Session, input: string, rawProducts: readonly string[], opts: SeveralGrantFlags): Promise<void> {
  checkArguments(session, input, rawProducts);
  const asks = session.io.stdin.isTTY && !session.globals.yes;
  const dates = grantDates(opts.accession, opts.expiration, undefined, undefined, { mayRenew: opts.renew === true || asks });
  const api = await session.api();
  const { student, products } = await resolveAll(session, input, rawProducts);
  // What each grant would do, on a client that can only read: which would be renewals, and which would change a status.
  const previews = await Promise.all(products.map((product) =>
    grantToStudent(api.reading(), student, product.id, dates, { dryRun: true, renew: async () => true, includeStatusChanges: true, title: product.title })));
  const renewals = products.flatMap((product, index) => {
    const held = previews[index]?.result === 'renewed' ? previews[index]?.replaced : undefined;
    const status = held && resetsStatus(held.status) ? `, and ${statusResetNote(held.status)}` : '';
    return held ? [{ product, gap: `${accessGap(held, dates.expiration) ?? ''}${status}` }] : [];
  });
  let announced: Promise<void> | undefined;
  const announce = () => (announced ??= session.announceChange());
  // --renew, or a yes on a terminal to each; never implied by --yes: a renewal replaces a subscription.
  // A No skips that product only: the others go on.
  let renew: boolean | 'asked' = opts.renew === true;
  const declined = new Set<string>();
  if (renewals.length > 0 && !renew && asks) {
    await announce();
    for (const { product, gap } of renewals) {
      if (!(await session.agrees(`${studentLabel(student)} has ${named(product)} without the access asked: ${gap}. Revoke it and grant it again?`))) declined.add(product.id);
    }
    renew = 'asked';
  }
  const results = await applyEach(session, {
    student, products, command: 'students grant', reason: opts.reason, change: async (product, journal) => (declined.has(product.id)
      ? { student: student.input, student_id: student.id, product_id: product.id, result: 'skipped', message: `not renewed: you answered No for ${named(product)}; nothing sent` }
      : grantToStudent(api, student, product.id, dates, {
        reason: opts.reason, journal, beforeChange: announce, renew: async () => renew, includeStatusChanges: opts.includeStatusChanges, title: product.title,
      })),
  });
  await finish(session, student, results);
}

export async function revokeSeveral(session: Session, input: string, rawProducts: readonly string[], opts: { reason?: string }): Promise<void> {
  checkArguments(session, input, rawProducts);
  const api = await session.api();
  const { student, products } = await resolveAll(session, input, rawProducts);
  const previews = await Promise.all(products.map((product) => revokeFromStudent(api.reading(), student, product.id, { dryRun: true, title: product.title })));
  const held = products.filter((_, index) => previews[index]?.result === 'revoked');
  if (held.length > 0) {
    await session.announceChange();
    await session.confirm(`Revoke ${listed(held)} from ${studentLabel(student)}?`);
  }
  const results = await applyEach(session, {
    student, products, command: 'students revoke', reason: opts.reason,
    change: (product, journal) => revokeFromStudent(api, student, product.id, { reason: opts.reason, journal, title: product.title }),
  });
  await finish(session, student, results);
}

/** Checks without any request (exit 2). */
function checkArguments(session: Session, input: string, rawProducts: readonly string[]): void {
  parseStudentKey(input);
  for (const product of rawProducts) checkProductId(product);
  assertFieldsBeforeChange(session.globals.fields, RESULT_FIELDS, SEVERAL_VIEW);
}

/**
 * The student, and every product by id or title (the list read once, ids
 * checked too); every product that names nothing, several, or the same
 * product as another argument is reported at once (exit 2).
 */
async function resolveAll(session: Session, input: string, rawProducts: readonly string[]): Promise<{ student: ResolvedStudent; products: Named[] }> {
  const api = await session.api();
  const settled = await Promise.allSettled(rawProducts.map((raw) => resolveProduct(api, raw, { check: true })));
  const problems: string[] = [];
  const products: Named[] = [];
  settled.forEach((outcome, index) => {
    const raw = rawProducts[index] as string;
    if (outcome.status === 'rejected') {
      if (!(outcome.reason instanceof UsageError)) throw outcome.reason;
      problems.push(outcome.reason.message);
      return;
    }
    const twin = products.findIndex((product) => product.id === outcome.value.id);
    if (twin !== -1) problems.push(`${JSON.stringify(rawProducts[twin])} and ${JSON.stringify(raw)} name the same product, ${named(outcome.value)}; give it once`);
    else products.push(outcome.value);
  });
  if (problems.length > 0) throw new UsageError(`${problems.join('\n')}\nNothing was sent.`);
  return { student: await resolveStudent(api, input, { fetch: true, cache: session.lookups }), products };
}

/**
 * Applies `change` to each product in turn: a failure is that product's
 * result, except a refused token or a bug, which stops (the results so far
 * are printed first).
 */
async function applyEach(session: Session, { student, products, command, reason, change }: {
  student: ResolvedStudent; products: readonly Named[]; command: string; reason: string | undefined;
  change: (product: Named, journal: Journal) => Promise<ChangeOutcome>;
}): Promise<{ rows: Array<ProductResult & { error?: unknown }>; fatal?: unknown }> {
  const rows: Array<ProductResult & { error?: unknown }> = [];
  // Each change is recorded as it is sent, intent first (audit/journal.ts).
  const journal = await openJournal(session, { command, reason });
  for (const product of products) {
    const base = { student: student.input, product_id: product.id, product: product.title };
    try {
      const outcome = await change(product, journal);
      rows.push({ ...base, result: outcome.result, message: outcome.message });
    } catch (error) {
      if (error instanceof AuthError || !(error instanceof CliError)) return { rows, fatal: error };
      rows.push({ ...base, result: 'failed', message: error.message.replace(/\s*\n\s*/g, ' '), error });
    }
  }
  return { rows };
}

/** Prints one line per product and the summary; ends as a bulk run does (exit 7 or 6 when a product failed). */
async function finish(session: Session, student: ResolvedStudent, { rows, fatal }: Awaited<ReturnType<typeof applyEach>>): Promise<void> {
  await withOutput(session, (output) => output.list(rows.map(({ error: _error, ...row }) => row), SEVERAL_VIEW));
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.result, (counts.get(row.result) ?? 0) + 1);
  const parts = [...counts].filter(([result]) => result !== 'failed').map(([result, count]) => `${count} ${result}`);
  const failed = rows.filter((row) => row.result === 'failed');
  (await session.messages()).notice(`${plural(rows.length, 'product')} for ${studentLabel(student)}: ${[...parts, `${failed.length} failed`].join(', ')}`);
  if (fatal !== undefined) throw fatal;
  if (failed.length === 0) return;
  const again = 'run the same command again: the products that hold come back skipped';
  if (failed.every((row) => row.error instanceof TransientError)) {
    throw new CliError(`${failed.length} of ${plural(rows.length, 'product')} failed for a transient reason (429, 5xx, network, timeout); ${again}`, ExitCode.transient);
  }
  throw new BulkFailedError(`${failed.length} of ${plural(rows.length, 'product')} failed (result "failed" above, with the reason); fix the cause and ${again}`);
}
