/**
 * Typed errors. The exit code of every failure is decided here and only here
 * (contract §4); the error boundary in main.ts just reads `exitCode`.
 */
export const ExitCode = {
  ok: 0,
  internal: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  rejected: 5,
  transient: 6,
  bulkFailed: 7,
  // members sync --check: the platform differs from the file (monitoring alerts on it).
  drift: 8,
  // members sync: the plan would revoke more than --max-revoke (or the default cap) allows; nothing was changed.
  revokeCap: 9,
  // A run that changes many students: another run holds a lease on the same scope (issue 36); nothing was sent.
  leaseHeld: 10,
  // The change record (a team's PostgreSQL) cannot be written: no change is sent unless it can be recorded.
  recordUnavailable: 11,
  interrupted: 130,
  // stdout closed by its reader (128 + SIGPIPE, as shells report it).
  stdoutClosed: 141,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** A guess at what the user meant: the error boundary prints the command line again with `replace` → `with` (never runs it). */
export interface Rerun {
  replace: string;
  with: string;
}

export class CliError extends Error {
  /** Set on a "not found" when a near student exists (domain/email-slips.ts). */
  rerun?: Rerun;

  constructor(
    message: string,
    readonly exitCode: ExitCodeValue,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Bad flags, arguments or input, found before anything was sent. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.usage);
  }
}

/** Identifies one HTTP exchange in messages, with secrets already redacted. */
export interface RequestLabel {
  method: string;
  /** Path (and query) relative to the origin, redacted. */
  path: string;
}

const label = (req: RequestLabel) => `(${req.method} ${req.path})`;

/** Any failure of an HTTP exchange; subclasses fix the exit code. */
export class ApiError extends CliError {
  constructor(
    message: string,
    exitCode: ExitCodeValue,
    readonly request: RequestLabel,
    status?: number,
    /** Field errors sent by the server (400/422), field → messages. */
    readonly fieldErrors?: Record<string, string[]>,
    options?: { cause?: unknown },
  ) {
    super(`${message} ${label(request)}`, exitCode, status, options);
  }
}

export class AuthError extends ApiError {}
export class NotFoundError extends ApiError {}
/**
 * A 404 from the router, not from a lookup: no route matched the path (Laravel:
 * `{"message": ""}`), so it says nothing about whether the record exists.
 */
export class RouteMissError extends NotFoundError {}
export class RejectedError extends ApiError {}
export class TransientError extends ApiError {}

/** Credentials missing before any request could be made. */
export class MissingCredentialsError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.auth);
  }
}

/** The tokens are in an OS keychain that did not answer (locked, no session bus, MEMBERS_KEYCHAIN=off). */
export class KeychainError extends MissingCredentialsError {
  constructor(message: string, readonly reason: string) {
    super(message);
  }
}

/** A bulk run finished and at least one row failed. */
export class BulkFailedError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.bulkFailed);
  }
}

/**
 * stdout went away (`… | head`): the conventional 141 (128 + SIGPIPE), as a
 * shell reports for `yes | head`. A list ends quietly; a bulk run says what it
 * applied first.
 */
export class StdoutClosedError extends CliError {
  /** `ok` when a person quit the pager: they had what they wanted. */
  constructor(message = '', exitCode: ExitCodeValue = ExitCode.stdoutClosed) {
    super(message, exitCode);
  }
}

/**
 * `members sync --check`: something would change (exit 8). An expected
 * result, not a failure: the command says it as a notice, and the error
 * boundary prints no `error:` line.
 */
export class DriftError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.drift);
  }
}

/** `members sync`: a product would lose more holders than its cap allows (exit 9); nothing was changed. */
export class RevokeCapError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.revokeCap);
  }
}

/** Another run holds a lease on the scope of this one (audit/leases.ts); nothing was sent. */
export class LeaseHeldError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.leaseHeld);
  }
}

/** The change record cannot be written (or read, for a change): nothing more is sent (exit 11). */
export class RecordUnavailableError extends CliError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, ExitCode.recordUnavailable, undefined, options);
  }
}

export class InterruptedError extends CliError {
  constructor(message = 'interrupted') {
    super(message, ExitCode.interrupted);
  }
}
