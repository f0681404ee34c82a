/**
 * A person's yes to a change (issue 39, point 2): asked through the client
 * with an MCP elicitation form that shows exactly what will change and asks
 * for the reason. The model has no way to answer it: no tool argument
 * confirms anything. A client that cannot ask gets a refusal, and a person
 * who declines, cancels or gives no reason gets nothing sent.
 */
import { CliError, ExitCode } from '../../lib/errors.js';
import { printable } from '../../output/sanitize.js';
import { maskText } from './mask.js';
import type { McpServer, ServerContext } from './sdk.js';
import type { Confirmation, Confirmed, McpSettings } from './tool.js';

/** Nothing was changed: the person said no, or could not be asked. */
export class NotConfirmedError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.usage);
  }
}

export const NO_ELICITATION = 'this assistant\'s client cannot show a confirmation form (it does not support MCP elicitation), '
  + 'so members makes no change through it: nothing was changed. Make the change at a terminal with the members command, '
  + 'or use a client that supports elicitation (see docs/mcp.md)';

const REASON_FIELD = {
  type: 'string',
  title: 'Reason',
  description: 'Why this change is made: a ticket number, a refund… (kept in the change record, members history)',
  minLength: 1,
} as const;

export function confirmer(server: McpServer, ctx: ServerContext, settings: Pick<McpSettings, 'showPersonalData'>) {
  const canAsk = () => server.server.getClientCapabilities()?.elicitation !== undefined;
  const text = (message: string) => printable(settings.showPersonalData ? message : maskText(message));
  return {
    async confirm(confirmation: Confirmation): Promise<Confirmed> {
      if (!canAsk()) throw new NotConfirmedError(NO_ELICITATION);
      const file = confirmation.file && { type: 'string', ...confirmation.file } as const;
      const answer = await ctx.mcpReq.elicitInput({
        mode: 'form',
        message: `${text(confirmation.message)}\n\nConfirm only if you, not the assistant, want this change. Give the reason to make it; decline to change nothing.`,
        requestedSchema: { type: 'object', properties: { reason: REASON_FIELD, ...(file && { file }) }, required: ['reason'] },
      });
      if (answer.action !== 'accept') {
        throw new NotConfirmedError(`the person ${answer.action === 'decline' ? 'declined' : 'cancelled'} the change in the confirmation form: nothing was changed`);
      }
      const reason = typeof answer.content?.reason === 'string' ? answer.content.reason.trim() : '';
      if (reason === '') throw new NotConfirmedError('the confirmation form came back without a reason: nothing was changed');
      const named = confirmation.file && typeof answer.content?.file === 'string' ? answer.content.file.trim() : '';
      return named === '' ? { reason } : { reason, file: named };
    },
    /** For the person's eyes: a form with nothing to fill in, whose message the tool's answer never holds. */
    async showPerson(message: string): Promise<void> {
      if (!canAsk()) throw new NotConfirmedError(NO_ELICITATION);
      await ctx.mcpReq.elicitInput({ mode: 'form', message: printable(message), requestedSchema: { type: 'object', properties: {} } });
    },
  };
}
