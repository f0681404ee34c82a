/**
 * A saved sync plan (`members sync --plan-out plan.json`, applied later with
 * `members sync --apply plan.json`): where it was made (profile, base URL),
 * the products in scope, each change with the state it was planned from, and
 * a hash of all of it. The hash finds a plan edited by hand or cut short (it
 * is no signature: whoever can write the file can write a new hash); the base
 * URL keeps a plan from being applied to another platform.
 */
import { createHash } from 'node:crypto';
import * as z from 'zod';
import { UsageError } from '../../lib/errors.js';
import { PlanRecord } from './records.js';

export const PLAN_KIND = 'members-sync-plan';
export const PLAN_VERSION = 1;

export const SavedPlan = z.strictObject({
  kind: z.literal(PLAN_KIND),
  version: z.literal(PLAN_VERSION),
  /** When it was planned (ISO 8601, UTC). */
  created: z.string(),
  profile: z.string(),
  base_url: z.string(),
  /** The file the plan was made from, as given (`stdin` for -). */
  source: z.string(),
  mode: z.enum(['both', 'add-only', 'remove-only']),
  products: z.array(z.string()),
  in_sync: z.number().int().nonnegative(),
  changes: z.array(PlanRecord),
  hash: z.string(),
});
export type SavedPlan = z.infer<typeof SavedPlan>;

/** The same text for the same plan whatever the order of the keys in the file: every field but the hash, in a fixed order. */
function canonical(plan: Omit<SavedPlan, 'hash'>): string {
  const change = (record: PlanRecord) => PLAN_RECORD_KEYS.map((key) => record[key]);
  return JSON.stringify([
    plan.kind, plan.version, plan.created, plan.profile, plan.base_url, plan.source, plan.mode, plan.products, plan.in_sync, plan.changes.map(change),
  ]);
}

const PLAN_RECORD_KEYS = Object.keys(PlanRecord.shape) as Array<keyof PlanRecord>;

export const planHash = (plan: Omit<SavedPlan, 'hash'>) => `sha256:${createHash('sha256').update(canonical(plan)).digest('hex')}`;

/** The plan with its hash, as written (pretty: people read plans before applying them). */
export function savedPlanText(plan: Omit<SavedPlan, 'kind' | 'version' | 'hash'>): string {
  const body = { kind: PLAN_KIND, version: PLAN_VERSION, ...plan } as const;
  return `${JSON.stringify({ ...body, hash: planHash(body) }, null, 2)}\n`;
}

/** Reads a plan file's text: not a plan, or edited since it was written (its hash), is exit 2. */
export function parseSavedPlan(text: string, name: string): SavedPlan {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageError(`${name} is not a sync plan (not JSON); make one with \`members sync --file FILE --plan-out ${name}\``);
  }
  const parsed = SavedPlan.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    throw new UsageError(`${name} is not a sync plan members can apply (${issue?.message ?? 'unexpected shape'}${where}); make one with \`members sync --file FILE --plan-out ${name}\``);
  }
  const { hash, ...body } = parsed.data;
  if (planHash(body) !== hash) {
    throw new UsageError(`${name} was changed after it was written (its hash does not match); nothing was sent. A plan is applied as it was made: plan again with --plan-out`);
  }
  return parsed.data;
}

/**
 * A plan is applied where it was made, and as whom: one made for another base
 * URL, or with another profile (other credentials, another name in the audit
 * log), is refused (exit 2) before any request.
 */
export function checkPlanTarget(plan: Pick<SavedPlan, 'base_url' | 'profile' | 'source'>, here: { baseUrl: string; profile: string }, name: string): void {
  const replan = `plan again here: \`members sync --file ${plan.source === 'stdin' ? '-' : plan.source} --plan-out ${name}\``;
  if (plan.base_url !== here.baseUrl) {
    const there = plan.profile === here.profile ? `--base-url ${plan.base_url}` : `--profile ${plan.profile}`;
    throw new UsageError(
      `${name} was made for ${plan.base_url} (profile ${plan.profile}), but the base URL in force is ${here.baseUrl || 'none'} (profile ${here.profile}); `
        + `nothing was sent. A plan applies only to the server it was planned from: apply it there (${there}), or ${replan}`,
    );
  }
  if (plan.profile !== here.profile) {
    throw new UsageError(
      `${name} was made with profile ${plan.profile}, but the profile in force is ${here.profile} (the same base URL, ${here.baseUrl}); nothing was sent. `
        + `A plan is applied with the profile it was made with (its credentials, its name in the audit log): run with --profile ${plan.profile}, or ${replan}`,
    );
  }
}
