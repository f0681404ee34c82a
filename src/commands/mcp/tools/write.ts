/**
 * The tools that change something (issue 39, point 2), listed only with
 * `members mcp --allow-writes`. Each reads the state first, as the commands
 * do; then, when there is something to change, asks the person to confirm it
 * in the client's form (context.confirm: the student, the product and the
 * dates by name, and a required reason); then sends it, recorded as the
 * commands record it, with `via: mcp`, the client's name and that reason.
 */
import * as z from 'zod';
import type { Subscription } from '../../../api/endpoints/schemas.js';
import { openJournal } from '../../../audit/journal.js';
import { grantDates, grantToStudent, productLabel, revokeFromStudent, type ChangeOptions, type ChangeOutcome } from '../../../domain/changes.js';
import { resolveProduct } from '../../../domain/names.js';
import { resolveStudent, studentLabel, type ResolvedStudent } from '../../../domain/resolve.js';
import { DATA_NOTE } from '../answer.js';
import { tool, type Answer, type Tool, type ToolContext } from '../tool.js';
import { STUDENT_KEY } from './read.js';

const PRODUCT = 'The product: its id, its title (case and accents ignored) or the start of its title.';
const CONFIRMED = 'The person is asked to confirm it in a form of the client, with a reason; you cannot confirm it for them, and nothing is sent if they decline.';

/** Where the change goes: the profile and its host, as a command announces it. */
async function target(context: ToolContext): Promise<string> {
  const settings = await context.session.settings();
  return `profile "${settings.profile}" (${settings.baseUrl ? new URL(settings.baseUrl).host : 'no host'})`;
}

/**
 * The options of a change confirmed by the person: `beforeChange` runs once
 * the state was read and something is to be sent; it asks, then opens the
 * change record with the reason given (read by the domain right after it).
 */
function confirmedChange(context: ToolContext, command: string, question: (held?: Subscription) => Promise<string>, title: string | undefined): ChangeOptions {
  const options: ChangeOptions = {
    title,
    renewHint: 'renew it at a terminal (`members students grant STUDENT PRODUCT --renew`)',
    statusHint: 'renew it at a terminal with --include-status-changes',
    beforeChange: async (held) => {
      const reason = await context.confirm({ message: await question(held) });
      options.reason = reason;
      options.journal = await openJournal(context.session, { command, reason, via: 'mcp', client: context.client() });
    },
  };
  return options;
}

/** A change's outcome for the assistant: what happened, the subscription as it is, the record's id (for undo). */
function outcome(result: ChangeOutcome): Answer {
  return {
    summary: `${result.result === 'skipped' ? '' : '✓ '}${result.message}`,
    data: { result: result.result, student_id: result.student_id, product_id: result.product_id, subscription: result.subscription ?? null, audit_id: result.auditId ?? null },
  };
}

const who = (student: ResolvedStudent) => `${studentLabel(student)} (student id ${student.id})`;

const grantTool = tool({
  name: 'grant_product',
  title: 'Grant a product to a student',
  description: `Give a student a product, with its accession and expiration dates. Nothing is sent when the student already has access. ${CONFIRMED} `
    + `A subscription held without access is not renewed here (the answer says how). ${DATA_NOTE}`,
  input: z.object({
    student: z.string().min(1).describe(STUDENT_KEY),
    product: z.string().min(1).describe(PRODUCT),
    accession: z.string().optional().describe('Accession date, YYYY-MM-DD (default: today).'),
    expiration: z.string().optional().describe('Expiration date, YYYY-MM-DD (default: none).'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(args, context) {
    const dates = grantDates(args.accession, args.expiration, { accession: 'accession', expiration: 'expiration' });
    const api = await context.api();
    const { id: productId, title } = await resolveProduct(api, args.product, { argument: 'product', check: true });
    const student = await resolveStudent(api, args.student, { fetch: true });
    const question = async () => `Grant ${productLabel(productId, undefined, title)} to ${who(student)}: access from ${dates.accession}, `
      + `${dates.expiration ? `until ${dates.expiration}` : 'with no expiration'}. On ${await target(context)}.`;
    return outcome(await grantToStudent(api, student, productId, dates, confirmedChange(context, 'students grant', question, title)));
  },
});

const revokeTool = tool({
  name: 'revoke_product',
  title: 'Revoke a product from a student',
  description: `Take a product away from a student (the subscription is deleted; members undo can grant it back). Nothing is sent when the student does not have it. ${CONFIRMED} ${DATA_NOTE}`,
  input: z.object({
    student: z.string().min(1).describe(STUDENT_KEY),
    product: z.string().min(1).describe(PRODUCT),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run(args, context) {
    const api = await context.api();
    const { id: productId, title } = await resolveProduct(api, args.product, { argument: 'product', check: true });
    const student = await resolveStudent(api, args.student, { fetch: true });
    const question = async (held?: Subscription) => `Revoke ${productLabel(productId, held, title)} from ${who(student)}: the subscription `
      + `(${held?.status ?? 'no status'}, since ${held?.accession_date?.slice(0, 10) ?? 'an unknown date'}, ${held?.expiration_date ? `until ${held.expiration_date.slice(0, 10)}` : 'no expiration'}) `
      + `and its access end now. On ${await target(context)}.`;
    return outcome(await revokeFromStudent(api, student, productId, confirmedChange(context, 'students revoke', question, title)));
  },
});

export const WRITE_TOOLS: readonly Tool[] = [grantTool, revokeTool];
