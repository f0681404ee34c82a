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
import { createMagicLink, type MagicLinkOptions } from '../../../domain/magic-link.js';
import { changeScore, type ScoreChangeOptions } from '../../../domain/scores.js';
import { parseDuration } from '../../../lib/values.js';
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
      options.journal = await journalFor(context, command, reason);
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

/** The change record of a change the person confirmed: via mcp, the client, their reason. */
const journalFor = (context: ToolContext, command: string, reason: string) => openJournal(context.session, { command, reason, via: 'mcp', client: context.client() });

/** Sets or adds to a score, once the person confirmed the score before and after. */
async function scoreChange(context: ToolContext, input: string, command: string, next: (previous: number | null) => number): Promise<Answer> {
  const api = await context.api();
  const student = await resolveStudent(api, input, { fetch: true });
  const options: ScoreChangeOptions = {
    beforeChange: async (previous, score) => {
      const reason = await context.confirm({ message: `Set the community score of ${who(student)} from ${previous ?? 'none'} to ${score}. On ${await target(context)}.` });
      options.journal = await journalFor(context, command, reason);
    },
  };
  const change = await changeScore(api, student, next, options);
  return {
    summary: `✓ set the score of ${studentLabel(student)} from ${change.previous ?? 'none'} to ${change.score.score}`,
    data: { student_id: student.id, previous: change.previous, score: change.score, audit_id: change.auditId ?? null },
  };
}

const SCORE_ANNOTATIONS = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false } as const;

const setScoreTool = tool({
  name: 'set_score',
  title: "Set a student's score",
  description: `Set a student's community score to a whole number (members undo can put the old one back). ${CONFIRMED} ${DATA_NOTE}`,
  input: z.object({ student: z.string().min(1).describe(STUDENT_KEY), score: z.number().int().describe('The new score.') }),
  annotations: { ...SCORE_ANNOTATIONS, idempotentHint: true },
  run: ({ student, score }, context) => scoreChange(context, student, 'scores set', () => score),
});

const addScoreTool = tool({
  name: 'add_score_points',
  title: "Add points to a student's score",
  description: `Add points to (or, negative, take them from) a student's community score; the person sees the score before and after. ${CONFIRMED} ${DATA_NOTE}`,
  input: z.object({ student: z.string().min(1).describe(STUDENT_KEY), points: z.number().int().describe('Points to add; negative to take away.') }),
  annotations: SCORE_ANNOTATIONS,
  run: ({ student, points }, context) => scoreChange(context, student, 'scores add', (previous) => (previous ?? 0) + points),
});

const magicLinkTool = tool({
  name: 'magic_link',
  title: 'Send a magic login link to the person',
  description: 'Create a magic link that logs a student in, for the person at the desk to send. The link is a credential: it is shown to the person '
    + `in a second form of the client and never comes back to you; the answer says it was shown. ${CONFIRMED} ${DATA_NOTE}`,
  input: z.object({
    student: z.string().min(1).describe(STUDENT_KEY),
    expire_in: z.string().optional().describe('How long the link works: 30m, 2h, 1d… (default 1h).'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(args, context) {
    const expireIn = parseDuration(args.expire_in ?? '1h', 'expire_in');
    const api = await context.api();
    const student = await resolveStudent(api, args.student, { fetch: true });
    const options: MagicLinkOptions = {
      beforeChange: async () => {
        const reason = await context.confirm({
          message: `Create a magic link that logs ${who(student)} in, valid ${args.expire_in ?? '1h'}. It will be shown to you in the next form, not to the assistant. On ${await target(context)}.`,
        });
        options.journal = await journalFor(context, 'magic-link', reason);
      },
    };
    const link = await createMagicLink(api, student.id, expireIn, options);
    await context.showPerson(`Magic link for ${studentLabel(student)}, valid ${link.expire_in} seconds. Copy it and send it to the student; it logs them in:\n\n${link.url}`);
    return {
      summary: `✓ created a magic link for ${studentLabel(student)} and showed it to the person (it is not part of this answer)`,
      data: { student_id: student.id, expire_in: link.expire_in, shown_to: 'the person, in the client\'s form' },
    };
  },
});

export const WRITE_TOOLS: readonly Tool[] = [grantTool, revokeTool, setScoreTool, addScoreTool, magicLinkTool];
