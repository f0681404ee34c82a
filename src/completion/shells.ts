/*
 * What registering `members completion` needs, apart from the completion spec:
 * the spec reads the API schemas, which --help and every other command
 * should not pay for.
 */
import type { CompletionHelper } from './complete.js';

export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;
export type Shell = (typeof SHELLS)[number];

/** The hidden command the scripts call for values only this machine knows (src/completion/complete.ts). */
export const helperCommand = (helper: CompletionHelper) => `__complete-${helper}`;
