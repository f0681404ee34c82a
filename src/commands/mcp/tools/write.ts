/**
 * The tools that change something (issue 39, point 2), listed only with
 * `members mcp --allow-writes`. Each reads the state first, as the commands
 * do; then, when there is something to change, asks the person to confirm it
 * in the client's form (context.confirm: the student, the product and the
 * dates by name, and a required reason); then sends it, recorded as the
 * commands record it, with `via: mcp`, the client's name and that reason.
 */
import { isAbsolute, join } from 'node:path';
import * as z from 'zod';
import type { Subscription } from '../../../api/endpoints/schemas.js';
import { openJournal, type Journal } from '../../../audit/journal.js';
import { auditBaseUrl } from '../../../audit/stamp.js';
import { readRecords } from '../../shared/records.js';
import {
  grantDates, grantToStudent, productLabel, renewalDates, revokeFromStudent, type ChangeOptions, type ChangeOutcome, type GrantDates,
} from '../../../domain/changes.js';
import { resolveProduct } from '../../../domain/names.js';
import { createMagicLink } from '../../../domain/magic-link.js';
import { changeScore } from '../../../domain/scores.js';
import { applyUndo, planUndo, undoLabel, undoQuestion } from '../../../domain/undo.js';
import { parseDuration } from '../../../lib/values.js';
import { resolveStudent, studentLabel, type ResolvedStudent } from '../../../domain/resolve.js';
import { UsageError } from '../../../lib/errors.js';
import { openAtomicFile, type AtomicFile } from '../../../lib/atomic-file.js';
import { NotConfirmedError } from '../confirm.js';
import { productTitlesOf } from '../../shared/product-titles.js';
import { DATA_NOTE } from '../answer.js';
import { tool, type Answer, type Confirmation, type Confirmed, type Tool, type ToolContext } from '../tool.js';
import { STUDENT_KEY } from './read.js';

const PRODUCT = 'The product: its id, its title (case and accents ignored) or the start of its title.';
const CONFIRMED = 'The person is asked to confirm it in a form of the client, with a reason; you cannot confirm it for them, and nothing is sent if they decline.';

/** Where the change goes: the profile and its host, as a command announces it. */
/** The assistant's own words for the flags: a renewal is one more yes of the person's, not a flag. */
const ASK_AGAIN = 'call grant_product again with renew: true (the person confirms the renewal)';

async function where(context: ToolContext): Promise<string> {
  const settings = await context.session.settings();
  return `profile "${settings.profile}" (${settings.baseUrl ? new URL(settings.baseUrl).host : 'no host'})`;
}

/**
 * A change the person confirms: `ask` puts the question to them and opens
 * the change record with the reason they gave (via mcp, the client);
 * `journal` writes to that record. Every change of the domain begins its
 * record before its request, and this journal refuses to begin one before
 * the person said yes: no path can send a change they did not confirm.
 */
function personConfirms(context: ToolContext, command: string): {
  journal: Journal; ask(message: string): Promise<void>; askFor(confirmation: Confirmation): Promise<Confirmed>;
} {
  let opened: Journal | undefined;
  const current = () => {
    if (!opened) throw new Error(`a change (${command}) was about to be sent before the person confirmed it; nothing was sent`);
    return opened;
  };
  const askFor = async (confirmation: Confirmation) => {
    const confirmed = await context.confirm(confirmation);
    opened = await openJournal(context.session, { command, reason: confirmed.reason, via: 'mcp', client: context.client() });
    return confirmed;
  };
  return {
    journal: deferred(current),
    askFor,
    async ask(message) {
      await askFor({ message });
    },
  };
}

/** A journal that is `current()` at the time of each call. */
function deferred(current: () => Journal): Journal {
  return {
    get command() {
      return current().command;
    },
    begin: (entry, options) => current().begin(entry, options),
    with: (fields) => deferred(() => current().with(fields)),
    as: (fields) => deferred(() => current().as(fields)),
  };
}

/** What grant and revoke need: the question asked once the state is read and something is to be sent. */
function confirmedChange(context: ToolContext, command: string, question: (held?: Subscription) => Promise<string>, title: string | undefined): ChangeOptions {
  const { journal, ask } = personConfirms(context, command);
  return {
    title,
    journal,
    wording: { renew: ASK_AGAIN, statusChange: ASK_AGAIN },
    beforeChange: async (held) => ask(await question(held)),
  };
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
    + 'A subscription held without access (or with another expiration) is refused unless renew is true: then it is revoked and granted again, '
    + `keeping its accession date unless one is given, and the person's form says so. ${DATA_NOTE}`,
  input: z.object({
    student: z.string().min(1).describe(STUDENT_KEY),
    product: z.string().min(1).describe(PRODUCT),
    accession: z.string().optional().describe('Accession date, YYYY-MM-DD (default: today).'),
    expiration: z.string().optional().describe('Expiration date, YYYY-MM-DD (default: none; a renewal keeps the current one if it has not passed).'),
    renew: z.boolean().optional().describe('Renew a subscription held without access or with another expiration (revoke, then grant again).'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(args, context) {
    const dates = grantDates(args.accession, args.expiration, { accession: 'accession', expiration: 'expiration' }, undefined, { mayRenew: args.renew === true });
    const api = await context.api();
    const { id: productId, title } = await resolveProduct(api, args.product, { argument: 'product', check: true });
    const student = await resolveStudent(api, args.student, { fetch: true });
    const span = (granted: GrantDates) => `access from ${granted.accession}, ${granted.expiration ? `until ${granted.expiration}` : 'with no expiration'}`;
    // A renewal the domain is about to make: the person's question names it, what it changes and the dates it keeps.
    let renewal: { gap: string; statusChange?: string } | undefined;
    const question = async (held?: Subscription) => {
      const what = `${productLabel(productId, held, title)} ${renewal ? 'for' : 'to'} ${who(student)}`;
      const change = renewal && held
        ? `Renew ${what}: ${renewal.gap}${renewal.statusChange ? `, and ${renewal.statusChange}` : ''}. It is revoked and granted again, ${span({ ...renewalDates(held, dates), accessionGiven: dates.accessionGiven })}`
        : `Grant ${what}: ${span(dates)}`;
      return `${change}. On ${await where(context)}.`;
    };
    const options = confirmedChange(context, 'students grant', question, title);
    // The renewal is made only once the person said yes to the question that names it (and any status it changes).
    options.renew = async (_held, gap, statusChange) => {
      if (!args.renew) return false;
      renewal = { gap, statusChange };
      return 'asked';
    };
    return outcome(await grantToStudent(api, student, productId, dates, options));
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
      + `and its access end now. On ${await where(context)}.`;
    return outcome(await revokeFromStudent(api, student, productId, confirmedChange(context, 'students revoke', question, title)));
  },
});

/** Sets or adds to a score, once the person confirmed the score before and after. */
async function scoreChange(context: ToolContext, input: string, command: string, next: (previous: number | null) => number): Promise<Answer> {
  const api = await context.api();
  const student = await resolveStudent(api, input, { fetch: true });
  const { journal, ask } = personConfirms(context, command);
  const change = await changeScore(api, student, next, {
    journal,
    beforeChange: async (previous, score) => ask(`Set the community score of ${who(student)} from ${previous ?? 'none'} to ${score}. On ${await where(context)}.`),
  });
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

/** The magic link form's own field: the person, not the model, may name a file for the link. */
const LINK_FILE = {
  title: 'Or write the link to this file',
  description: 'Optional. A full path on this computer (/… or ~/…): the link is written there, readable only by you, and not shown. '
    + 'Left empty, the link is shown to you in the next form.',
};

const magicLinkTool = tool({
  name: 'magic_link',
  title: 'Create a magic login link, for the person only',
  description: 'Create a magic link that logs a student in, for the person at the desk to send. The link is a credential: it never comes back to you. '
    + 'The person sees it in a second form of the client, or has it written to a file they name in the confirmation form (you cannot choose it); '
    + `the answer says which. ${CONFIRMED} ${DATA_NOTE}`,
  input: z.object({
    student: z.string().min(1).describe(STUDENT_KEY),
    expire_in: z.string().optional().describe('How long the link works: 30m, 2h, 1d… (default 1h).'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(args, context) {
    const expireIn = parseDuration(args.expire_in ?? '1h', 'expire_in');
    const api = await context.api();
    const student = await resolveStudent(api, args.student, { fetch: true });
    const { journal, askFor } = personConfirms(context, 'magic-link');
    let file: AtomicFile | undefined;
    try {
      const link = await createMagicLink(api, student.id, expireIn, {
        journal,
        beforeChange: async () => {
          const confirmed = await askFor({
            message: `Create a magic link that logs ${who(student)} in, valid ${args.expire_in ?? '1h'}. It is shown to you in the next form, `
              + `or written to the file you name below, never to the assistant. On ${await where(context)}.`,
            file: LINK_FILE,
          });
          // Opened before the link is asked for: a file that cannot be written leaves nothing created.
          if (confirmed.file !== undefined) file = await openLinkFile(confirmed.file, context.session.io.env);
        },
      });
      const label = studentLabel(student);
      const named = file !== undefined;
      const written = file !== undefined && await committed(file, `${link.url}\n`);
      file = undefined; // committed, or discarded
      if (written) {
        return {
          summary: `✓ created a magic link for ${label} and wrote it to the file the person named (it is not part of this answer)`,
          data: { student_id: student.id, expire_in: link.expire_in, delivered_to: 'a file the person named in the form' },
        };
      }
      const unwritten = named ? 'It could not be written to the file you named. ' : '';
      await context.showPerson(`${unwritten}Magic link for ${label}, valid ${link.expire_in} seconds. Copy it and send it to the student; it logs them in:\n\n${link.url}`);
      return {
        summary: `✓ created a magic link for ${label} and showed it to the person (it is not part of this answer)`,
        data: { student_id: student.id, expire_in: link.expire_in, delivered_to: 'the person, in the client\'s form' },
      };
    } finally {
      // The link was not asked for, or the server refused it: the file is left as it was.
      await file?.discard();
    }
  },
});

/**
 * The file the person named for a link: a full path, since the server's
 * working directory is wherever the client started it. 0600, replaced in one
 * step, never through a link placed there (src/lib/atomic-file.ts).
 */
async function openLinkFile(named: string, env: Record<string, string | undefined>): Promise<AtomicFile> {
  const path = named.startsWith('~/') && env.HOME ? join(env.HOME, named.slice(2)) : named;
  if (!isAbsolute(path)) throw new NotConfirmedError(`the file for the link must be a full path (/… or ~/…), not "${named}": nothing was changed; ask again with one`);
  try {
    return await openAtomicFile(path);
  } catch (error) {
    throw new NotConfirmedError(`cannot write the link to ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): nothing was changed; ask again with a file in a folder you can write`);
  }
}

/** True once the link is in its file; false (the person is shown it instead) when the disk refused it. */
async function committed(file: AtomicFile, text: string): Promise<boolean> {
  try {
    file.write(text);
    await file.commit();
    return true;
  } catch {
    await file.discard();
    return false;
  }
}

const undoTool = tool({
  name: 'undo_change',
  title: 'Undo a change',
  description: 'Reverse one recorded change (a grant, a revoke, a renewal, a score set, a deleted student), by its id from the history tool, '
    + 'only where the state it left is still there. A whole run (a bulk file, a sync) is undone at a terminal (members undo RUN_ID). '
    + `${CONFIRMED} ${DATA_NOTE}`,
  input: z.object({ id: z.string().min(1).describe('The id of the change, as the history tool lists it.') }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run({ id }, context) {
    const { session } = context;
    const [messages, settings] = await Promise.all([session.messages(), session.settings()]);
    // A change of an interrupted run is in the log once checked on the server.
    await session.checkInterruptedChanges();
    const { records, team } = await readRecords(session, messages);
    const target = records.find((record) => record.id === id.trim());
    if (!target) throw new UsageError(`no change with id ${id} in ${team ? 'the team record' : "this machine's record"}; the history tool lists the ids`);
    if (target.action === 'bulk') throw new UsageError(`${id} is a whole run (${target.command}): undo it at a terminal with \`members undo ${id}\`, which lists its changes first`);
    if (target.base_url && auditBaseUrl(settings.baseUrl) !== target.base_url) {
      throw new UsageError(`change ${id} was made on ${target.base_url} (profile ${target.profile}), not on the profile this server uses (${settings.profile})`);
    }
    const plan = planUndo(target, records);
    const titles = await productTitlesOf(session, target.product_id ? [target.product_id] : []);
    const label = undoLabel(target, plan);
    const { journal, ask } = personConfirms(context, 'undo');
    const result = await applyUndo({
      api: await context.api(), journal, titles,
      confirm: async () => ask(`${undoQuestion(id, plan, label, titles).replace(/\?$/, '.')} On ${await where(context)}.`),
    }, target, plan, label);
    return { summary: `✓ undid ${id}: ${result.message}`, data: { undone: id, subscription: result.subscription ?? null, created: result.created ?? null } };
  },
});

export const WRITE_TOOLS: readonly Tool[] = [grantTool, revokeTool, setScoreTool, addScoreTool, magicLinkTool, undoTool];
