/**
 * How a command runs its output (contract §3): an Output opened for the
 * command, closed on success and aborted on any failure, Ctrl-C and SIGTERM
 * included, so that `--out FILE` is all or nothing; and lists streamed to it
 * until the user interrupts them.
 */
import { batched, batchesOf, type Batched, type Listing } from '../lib/batches.js';
import { InterruptedError } from '../lib/errors.js';
import type { GlobalOptions, Io } from '../lib/io.js';
import type { Output, Records, View } from '../output/index.js';
import type { Session } from './session.js';

/**
 * Opens the command's Output, runs `body`, then closes it; on any failure
 * (Ctrl-C and SIGTERM included, see `interruptible`) aborts it instead, so
 * that `--out FILE` never leaves a partial file behind.
 */
export async function withOutput<T>(session: Session, body: (output: Output) => Promise<T>, overrides: Partial<GlobalOptions> = {}): Promise<T> {
  const output = await session.output(overrides);
  try {
    const result = await body(output);
    await output.close();
    return result;
  } catch (error) {
    await output.abort();
    throw error;
  }
}

/** Streams `records` to the command's Output (as they arrive in json, ndjson and csv). */
export function printList(session: Session, view: View, records: Records): Promise<number> {
  return withOutput(session, async (output) => {
    // Tables wait for the last record: a spinner shows that something is happening.
    const spinner = session.globals.output === 'table' ? await (await session.messages()).spinner(`Fetching ${view.noun}…`) : undefined;
    try {
      return await output.list(interruptible(records, session.io), view);
    } finally {
      spinner?.stop();
    }
  });
}

/**
 * Passes records through, a batch at a time, until Ctrl-C or SIGTERM, which
 * end the iteration with an InterruptedError (exit 130) even while a request
 * is pending.
 */
export function interruptible<T>(records: Listing<T>, io: Io): Batched<T> {
  return batched(() => interruptibleBatches(batchesOf(records), io));
}

async function* interruptibleBatches<T>(batches: AsyncIterable<readonly T[]>, io: Io): AsyncGenerator<readonly T[]> {
  // One promise per step, not Promise.race against one long-lived promise: every race leaves a reaction on
  // the pending promise that holds its result, so a 200,000-record list would stay in memory to the end.
  let interrupt: ((error: Error) => void) | undefined;
  let stopped: Error | undefined;
  const stop = () => {
    stopped ??= new InterruptedError();
    interrupt?.(stopped);
  };
  const removers = [io.onInterrupt(stop), io.onTerminate?.(stop)];
  const iterator = batches[Symbol.asyncIterator]();
  let pending = false;
  try {
    for (;;) {
      if (stopped) throw stopped;
      const next = Promise.resolve(iterator.next());
      next.catch(() => undefined); // abandoned after an interrupt
      pending = true;
      const step = await new Promise<IteratorResult<readonly T[]>>((resolve, reject) => {
        if (stopped) return reject(stopped);
        interrupt = reject;
        next.then(resolve, reject);
      });
      interrupt = undefined;
      pending = false;
      if (step.done) return;
      io.onPage?.();
      yield step.value;
    }
  } finally {
    for (const remove of removers) remove?.();
    // A generator still running cannot be returned; after an interrupt it is simply abandoned.
    if (!pending) await iterator.return?.();
  }
}
