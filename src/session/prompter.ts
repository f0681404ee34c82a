/**
 * Questions on the terminal (contract §1.1): never asked off a terminal, where
 * the answer is a usage error telling the caller to pass --yes; Ctrl-C at a
 * question is a quiet cancel (exit 130), not a crash. Loaded only when a
 * command asks something.
 */
import type { Io } from '../lib/io.js';
import { InterruptedError, UsageError } from '../lib/errors.js';
import { printableLine } from '../output/sanitize.js';

export interface Prompter {
  /**
   * Asks before a change; resolves when accepted, else throws (exit 2). With
   * `typeToConfirm`, the user must type that text (bulk changes of many rows,
   * irreversible deletes).
   */
  confirm(question: string, typeToConfirm?: string): Promise<void>;
  /** The same question, whose No is an answer rather than a cancel: false (one product of several skipped, say). */
  agrees(question: string): Promise<boolean>;
  /** A secret from a hidden prompt on a terminal; undefined without one. */
  secret(message: string): Promise<string | undefined>;
}

export function createPrompter(io: Pick<Io, 'stdin' | 'stderr'>, options: { yes: boolean }): Prompter {
  const context = () => ({ input: io.stdin, output: io.stderr as NodeJS.WritableStream, clearPromptOnDone: false });
  const agrees = async (rawQuestion: string, typeToConfirm?: string): Promise<boolean> => {
    if (options.yes) return true;
    // A student's name comes from the server: it must not be able to rewrite the question.
    const question = printableLine(rawQuestion);
    if (!io.stdin.isTTY) {
      throw new UsageError(`${question.replace(/\?$/, '')}: confirmation needed but stdin is not a terminal; pass --yes to proceed`);
    }
    return cancellable(async () => {
      if (typeToConfirm === undefined) {
        const { default: confirm } = await import('@inquirer/confirm');
        return confirm({ message: question, default: false }, context());
      }
      const { default: input } = await import('@inquirer/input');
      return (await input({ message: `${question} Type ${typeToConfirm} to confirm:` }, context())).trim() === typeToConfirm;
    });
  };
  return {
    async confirm(question, typeToConfirm) {
      if (!(await agrees(question, typeToConfirm))) throw new UsageError('cancelled: nothing was changed');
    },
    agrees: (question) => agrees(question),
    async secret(message) {
      if (!io.stdin.isTTY) return undefined;
      const { default: password } = await import('@inquirer/password');
      const value = await cancellable(() => password({ message: printableLine(message), mask: false }, context()));
      return value.trim() || undefined;
    },
  };
}

/** Ctrl-C at a prompt: inquirer rejects with ExitPromptError. */
async function cancellable<T>(ask: () => Promise<T>): Promise<T> {
  try {
    return await ask();
  } catch (error) {
    if ((error as Error)?.name === 'ExitPromptError') throw new InterruptedError('cancelled at the prompt: nothing was changed');
    throw error;
  }
}
