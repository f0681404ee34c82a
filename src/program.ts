/** The whole program: every command, in the sections of `members --help` (command-line.ts builds it). */
import type { Command } from 'commander';
import { buildCommandLine, type CommandLineDeps } from './command-line.js';
import type { Registration } from './commands/shared/command-kit.js';
import type { Session } from './session/session.js';
import { registerHelp } from './commands/help/index.js';
import { registerAuth } from './commands/auth/index.js';
import { registerApi } from './commands/api/index.js';
import { registerStudents } from './commands/students/index.js';
import { registerScores } from './commands/scores/index.js';
import { registerMagicLink } from './commands/magic-link/index.js';
import { registerProducts } from './commands/products/index.js';
import { registerSubscriptions } from './commands/subscriptions/index.js';
import { registerCourses } from './commands/courses/index.js';
import { registerReport } from './commands/report/index.js';
import { registerSandbox } from './commands/sandbox/index.js';
import { registerCompletion } from './commands/completion/index.js';
import { registerHistory } from './commands/history/index.js';
import { registerUndo } from './commands/undo/index.js';
import { registerVersion } from './commands/version/index.js';
import { registerSync } from './commands/sync/index.js';
import { registerMcp } from './commands/mcp/index.js';
import { registerEach } from './commands/each/index.js';
import { registerRecord } from './commands/record/index.js';
import { registerLock } from './commands/lock/index.js';

const registrations: Registration[] = [
  registerStudents, registerScores, registerMagicLink, registerProducts, registerSubscriptions,
  registerCourses, registerReport, registerAuth, registerApi, registerSandbox, registerCompletion,
  registerHistory, registerUndo, registerVersion, registerSync, registerMcp, registerEach, registerRecord, registerLock, registerHelp,
];

export function buildProgram(deps: Omit<CommandLineDeps, 'commands'>): { program: Command; sessions: Session[] } {
  return buildCommandLine({ ...deps, commands: registrations });
}
