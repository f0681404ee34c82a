import { readFile } from 'node:fs/promises';
import { writeFileAtomically } from '../lib/atomic-file.js';
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
    // Serialised synchronously, so the snapshot is consistent even if changes follow. Replaced atomically: a
    // reader (or a kill) sees the old state or the new one, never half of one.
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
