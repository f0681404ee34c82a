/**
 * Saved sync plans on disk: `--plan-out plan.json` writes one (atomically,
 * 0600: it names students), `--apply plan.json` checks it (its hash, its base
 * URL) before any request, then applies exactly its changes, each checked
 * against the state it was planned from (domain/sync/apply.ts `verify`).
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { auditBaseUrl } from '../../audit/index.js';
import { UsageError } from '../../lib/errors.js';
import { openAtomicFile, type AtomicFile } from '../../lib/atomic-file.js';
import { plural } from '../../lib/values.js';
import { planScope, type SyncMode, type SyncPlan } from '../../domain/sync/plan.js';
import { changeOf, planRecord } from '../../domain/sync/records.js';
import { checkPlanTarget, parseSavedPlan, savedPlanText } from '../../domain/sync/saved-plan.js';
import { productTitles } from '../../domain/names.js';
import type { Session } from '../../session/session.js';
import type { PlanSync } from './flags.js';
import { applyPlan, printPlanRecords, productNamedAbove } from '../shared/apply-plan.js';

/** Opened before anything is read or sent: a path that cannot be written is exit 2 at once. */
export async function openPlanOut(session: Session, path: string): Promise<AtomicFile> {
  try {
    return await openAtomicFile(resolve(session.io.cwd, path));
  } catch (error) {
    throw new UsageError(`cannot write --plan-out ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

export async function writePlan(session: Session, file: AtomicFile, plan: SyncPlan, facts: { source: string; mode: SyncMode; path: string }): Promise<void> {
  const settings = await session.settings();
  file.write(savedPlanText({
    created: new Date().toISOString(), profile: settings.profile, base_url: auditBaseUrl(settings.baseUrl), source: facts.source, mode: facts.mode,
    products: plan.products, in_sync: plan.inSync, changes: plan.changes.map(planRecord),
  }));
  await file.commit();
  (await session.messages()).notice(`Plan written to ${facts.path}; nothing was changed. Apply it with \`members sync --apply ${facts.path}\`.`);
}

/** `members sync --apply plan.json`. */
export async function applySavedPlan(session: Session, request: PlanSync): Promise<void> {
  const { io, globals } = session;
  let text: string;
  try {
    text = await readFile(resolve(io.cwd, request.plan), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${request.plan}: ${code === 'ENOENT' ? 'no such file' : code ?? (error as Error).message}`);
  }
  const plan = parseSavedPlan(text, request.plan);
  const settings = await session.settings();
  checkPlanTarget(plan, { baseUrl: auditBaseUrl(settings.baseUrl), profile: settings.profile }, request.plan);
  if (plan.changes.length > 0 && !globals.yes && !io.stdin.isTTY) {
    throw new UsageError(`applying ${plural(plan.changes.length, 'change')} of ${request.plan} needs confirmation, but stdin is not a terminal; pass --yes to proceed`);
  }
  const messages = await session.messages();
  const api = await session.api();
  const showPlan = io.stdout.isTTY && !globals.out && plan.changes.length > 0;
  // A plan holds product ids: the question and the table name them by title, for one read of the product list (none offline).
  const titles = showPlan ? await productTitles(api).catch(() => undefined) : undefined;
  messages.notice(`Plan of ${plan.created} from ${plan.source}, for ${planScope(plan.products, titles)}: ${plural(plan.changes.length, 'change')}; each is checked against the state it was planned from.`);
  const oneProduct = productNamedAbove(session, plan.products.length);
  if (showPlan) await printPlanRecords(session, plan.changes, titles, oneProduct);
  await applyPlan(session, api, plan.changes.map(changeOf), { source: request.plan, planSource: plan.source, reason: request.reason, concurrency: request.concurrency, verify: true, titles, oneProduct });
}
