/**
 * What every command module shares, kept apart from program.ts so that no
 * command module imports the program (or another command) that imports it.
 * This module imports nothing of the commands.
 */
import type { Command } from 'commander';
import type { Session } from '../../session/session.js';

export interface Runner {
  /** The session of the command being run, built from its global options. */
  session(command: Command): Session;
}

/** The sections of `members --help`, in this order (Bulk lists the `--file` forms of `students` commands). */
export const HELP_SECTIONS = ['Everyday:', 'Bulk:', 'Reports:', 'Setup:'] as const;
export type HelpSection = Exclude<(typeof HELP_SECTIONS)[number], 'Bulk:'>;

/** A command module: the section of `members --help` its commands are listed in, and how it adds them. */
export interface Registration {
  readonly section: HelpSection;
  readonly register: (program: Command, runner: Runner) => void;
}

export function registration(section: HelpSection, register: Registration['register']): Registration {
  return { section, register };
}

/** A command's code: its session, then what commander hands an action but the command (the arguments, then the flags). */
type Action = (session: Session, ...args: never[]) => unknown;

/**
 * The action of a command whose module loads only when it runs, so that a run
 * pays for one command's code: `lazyAction(runner, () => import('./actions.js'), 'listProducts')`.
 */
export function lazyAction<K extends string, M extends Record<K, Action>>(
  runner: Runner, load: () => Promise<M>, name: K,
): (...args: unknown[]) => Promise<void> {
  return async (...args) => {
    const command = args.at(-1) as Command;
    const action = (await load())[name];
    const session = runner.session(command);
    const run = async (chosen: Session) => void await Reflect.apply(action, undefined, [chosen, ...args.slice(0, -1)]);
    const { profiles, allProfiles } = command.opts<{ profiles?: string; allProfiles?: boolean }>();
    if (profiles === undefined && !allProfiles) return run(session);
    const { readProfiles } = await import('./several-profiles.js');
    await readProfiles(session, { profiles, all: allProfiles === true }, run);
  };
}

/**
 * A read command that can read several schools at once (issue 38):
 * `--profiles a,b` or `--all-profiles`, in parallel, into one output whose
 * first column is the profile (shared/several-profiles.ts). Commands that
 * change something never get these flags.
 */
export function readsSeveralProfiles<T extends Command>(command: T): T {
  command
    .option('--profiles <names>', 'read these stored profiles (comma-separated) in parallel; the output gains a first column, profile')
    .option('--all-profiles', 'read every stored profile in parallel, as --profiles would');
  return command;
}

/** `Examples:` block for --help, as gh prints it. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  ${line}`).join('\n')}\n`;
}

/** The STUDENT argument of every command (contract §1.3). */
export const STUDENT_ARGUMENT = 'an id, an e-mail, a CPF (with or without punctuation), a phone (+55 61 93986-2924), doc:DOCUMENT, ref:REFERENCE or phone:PHONE (members help student-keys)';
/** PRODUCT and COURSE arguments (contract §1.3). */
export const PRODUCT_ARGUMENT = 'the product: its id, its title (case and accents ignored) or the start of its title';
export const COURSE_ARGUMENT = 'the course: its id, its slug, its title (case and accents ignored) or the start of its title';
export const REASON_OPTION = ['--reason <text>', 'why you make this change (kept in the local audit log)'] as const;
/** --reason again, for a command run per row of a file (members each). */
export const reasonFlag = (reason: string | undefined): string[] => (reason === undefined ? [] : ['--reason', reason]);

/** Record schemas of api/schemas.ts, by name: that module (and zod) loads only when the fields are listed. */
export type RecordSchema = 'Student' | 'Subscription' | 'Product' | 'Course' | 'CourseAccess' | 'Score' | 'MagicLink' | 'ReportItem';

const RECORD_FIELDS = new WeakMap<Command, RecordSchema | readonly string[]>();

/** Declares what a command prints, so that `--fields` with no list names the fields (as gh's `--json` does). */
export function printsRecords<T extends Command>(command: T, fields: RecordSchema | readonly string[]): T {
  RECORD_FIELDS.set(command, fields);
  return command;
}

export function recordFieldsOf(command: Command): RecordSchema | readonly string[] | undefined {
  return RECORD_FIELDS.get(command);
}
