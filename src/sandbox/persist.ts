import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { SandboxStore } from './store.js';
import type { SandboxState } from './types.js';

/** The saved state, or undefined when the file does not exist. */
export async function readStateFile(file: string): Promise<SandboxState | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let state: unknown;
  try {
    state = JSON.parse(text);
  } catch {
    state = undefined;
  }
  if (!isState(state)) throw new Error(`${file} is not a sandbox data file (expected JSON with "format": 1)`);
  return state;
}

function isState(value: unknown): value is SandboxState {
  if (typeof value !== 'object' || value === null) return false;
  const state = value as Record<string, unknown>;
  return state.format === 1 && ['products', 'courses', 'students', 'subscriptions', 'progress'].every((key) => Array.isArray(state[key]));
}

/**
 * Replaces `file` atomically: readers see the old or the new state, never a
 * half-written one. Mode 0600, since the file holds personal data.
 */
async function writeFileAtomically(file: string, text: string): Promise<void> {
  const temporary = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temporary, 'w', 0o600);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Saves the store after changes, at most once per interval, and on `flush()`. */
export class StateWriter {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> | undefined;
  private dirty = false;
  private failure: unknown;

  constructor(
    private readonly file: string,
    private readonly store: SandboxStore,
    private readonly intervalMs = 250,
  ) {}

  schedule(): void {
    this.dirty = true;
    this.timer ??= setTimeout(() => void this.save(), this.intervalMs);
  }

  /** Writes now if anything changed since the last save; rejects if a save (this one or a background one) failed. */
  async flush(): Promise<void> {
    await this.save();
    if (this.failure !== undefined) {
      const failure = this.failure;
      this.failure = undefined;
      throw failure;
    }
  }

  /** Never rejects: a failure is kept for flush() and the state stays dirty. */
  private async save(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.writing) await this.writing;
    if (!this.dirty) return;
    this.dirty = false;
    // Serialised synchronously, so the snapshot is consistent even if changes follow.
    const text = JSON.stringify(this.store.toState());
    this.writing = writeFileAtomically(this.file, text)
      .catch((error: unknown) => {
        this.failure = error;
        this.dirty = true;
      })
      .finally(() => {
        this.writing = undefined;
      });
    await this.writing;
  }
}
