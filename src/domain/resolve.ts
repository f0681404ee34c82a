/**
 * STUDENT arguments → student ids (contract §1.3). Commands that need an id
 * look the student up first when given an e-mail, `doc:` or `ref:`; an id is
 * taken as it is unless the caller needs the record. Bulk runs pass one cache
 * per run (StudentCache) so that a student named on many rows is looked up once.
 */
import type { Api } from '../api/client.js';
import { NotFoundError, RouteMissError } from '../lib/errors.js';
import { nameAndEmail } from '../lib/people.js';
import { getStudent, type LookupOptions } from '../api/endpoints/students.js';
import { PhoneBook } from '../api/pagination/phone-scan.js';
import type { Student } from '../api/endpoints/schemas.js';
import { canonicalValue, cpfSpelling, describeKey, parseStudentKey, plainId, type CpfSpelling, type StudentKey } from '../api/endpoints/student-key.js';

export interface ResolvedStudent {
  /** As the user wrote it: the STUDENT argument, or the CSV cell. */
  input: string;
  key: StudentKey;
  id: string;
  /** The student as the API sent it, when it was looked up (every key but a bare id, or `fetch`). */
  record?: Student;
}

export interface ResolveOptions {
  /** Share lookups across calls (bulk runs). Failed lookups other than "not found" are not kept. */
  cache?: StudentCache;
  /** Look the student up even when given an id (for its name, or to prove it exists). */
  fetch?: boolean;
  /** How the server writes CPFs, as far as the run knows (a CPF typed the other way is tried in that spelling first); learnt from the first student found by a CPF when unknown. */
  spelling?: CpfSpellingMemory;
}

/** What a run knows of how the server writes CPFs: told by the student list's first page, or learnt from a lookup. */
export interface CpfSpellingMemory {
  value?: CpfSpelling;
}

/**
 * A student found by a CPF, under its digits: a row naming the same CPF in
 * the other spelling shares the lookup. Only a student found by that very
 * document: a bare CPF may resolve as an id instead, and a "not found" in one
 * spelling does not try the id the other may (student-key.ts orId).
 */
const cpfAlias = (key: StudentKey) => (key.kind === 'document' && key.also !== undefined ? `cpf:${canonicalValue(key)}` : undefined);

const cacheKey = (key: StudentKey) => `${key.kind}:${key.kind === 'phone' ? canonicalValue(key) : key.value}`;

/**
 * The lookups of one run (a bulk file, a sync, `members each`), made by the
 * run and handed to every lookup it makes: a student named on several rows,
 * by any of its keys once one lookup found it, is looked up once, and every
 * phone of the run is found in one read of the student list. A failure other
 * than "not found" is forgotten (the next row may succeed).
 */
export class StudentCache {
  private readonly lookups = new Map<string, Promise<ResolvedStudent>>();
  private phones?: PhoneBook;

  /** The run's phone book: the student list read once for all its phone keys. */
  phoneBook(api: Api): PhoneBook {
    this.phones ??= new PhoneBook(api);
    return this.phones;
  }

  /** The lookup made for `key` earlier in the run, or for the same CPF in its other spelling. */
  find(key: StudentKey): Promise<ResolvedStudent> | undefined {
    const alias = cpfAlias(key);
    return this.lookups.get(cacheKey(key)) ?? (alias === undefined ? undefined : this.lookups.get(alias));
  }

  /** Keeps `lookup` for `key`; once it finds the student, under its id too (rows may mix keys), and a CPF under its digits. */
  keep(key: StudentKey, lookup: Promise<ResolvedStudent>): void {
    const name = cacheKey(key);
    const alias = cpfAlias(key);
    this.lookups.set(name, lookup);
    lookup.then(
      (resolved) => {
        const byId = cacheKey({ kind: 'id', value: resolved.id });
        if (!this.lookups.has(byId)) this.lookups.set(byId, lookup);
        const document = resolved.record?.document;
        if (alias !== undefined && document && cpfSpelling(document) && document.replace(/\D/g, '') === canonicalValue(key) && !this.lookups.has(alias)) this.lookups.set(alias, lookup);
      },
      // A transient failure may succeed on the next row; "not found" will not.
      (error: unknown) => {
        if (!(error instanceof NotFoundError) && this.lookups.get(name) === lookup) this.lookups.delete(name);
      },
    );
  }
}

/**
 * Parses `input` (a UsageError, exit 2, for an empty key) and resolves it to
 * an id. An unknown student is a NotFoundError (exit 4) naming the key.
 */
export async function resolveStudent(api: Api, input: string, options: ResolveOptions = {}): Promise<ResolvedStudent> {
  const key = parseStudentKey(input);
  if (plainId(key) && !options.fetch) return { input, key, id: key.value };

  const { cache, spelling } = options;
  const cached = cache?.find(key);
  if (cached) return { ...(await cached), input, key };

  const lookup = lookUpStudent(api, key, input, { spelling: spelling?.value, phones: cache?.phoneBook(api) }).then((record): ResolvedStudent => {
    if (spelling && spelling.value === undefined && cpfAlias(key) !== undefined && record.document) spelling.value = cpfSpelling(record.document);
    return { input, key, id: record.id, record };
  });
  cache?.keep(key, lookup);
  return lookup;
}

/**
 * The student with its subscriptions (getStudent); when an e-mail or a CPF
 * is not found, the error also says which student was probably meant
 * (`input` is the argument as typed, for the command to re-run).
 */
export async function lookUpStudent(api: Api, key: StudentKey, input = key.value, options: LookupOptions = {}): Promise<Student> {
  try {
    return await getStudent(api, key, options);
  } catch (error) {
    throw await withGuess(api, key, input, error);
  }
}

/**
 * `error`, and when it is "not found" for an e-mail or a CPF with wrong check
 * digits, the student the user probably meant (domain/email-slips.ts,
 * domain/cpf-slip.ts): added to its message, and as the command to re-run.
 * A guess is only ever printed, never acted on.
 */
export async function withGuess(api: Api, key: StudentKey, input: string, error: unknown): Promise<unknown> {
  if (!(error instanceof NotFoundError) || error instanceof RouteMissError) return error;
  const guess = key.kind === 'email' ? await guessEmail(api, key.value) : key.kind === 'document' ? await guessCpf(api, key.value) : undefined;
  if (guess?.text) error.message += `\n${guess.text}`;
  if (guess?.meant !== undefined) error.rerun = { replace: input, with: input.trim().replace(key.value, guess.meant) };
  return error;
}

/** What to add to a "not found", and the key meant when there is one. */
interface Guess {
  text: string;
  meant?: string;
}

async function guessEmail(api: Api, email: string): Promise<Guess> {
  const { describeSearch, searchEmailSlips } = await import('./email-slips.js');
  const search = await searchEmailSlips(api, email);
  return { text: describeSearch(search, email), meant: search.suggestions.length === 1 ? search.suggestions[0]?.email : undefined };
}

async function guessCpf(api: Api, document: string): Promise<Guess | undefined> {
  const { describeCpfSearch, searchCpfSlip } = await import('./cpf-slip.js');
  const search = await searchCpfSlip(api, document);
  return search && { text: describeCpfSearch(search), meant: search.found ? search.fixed : undefined };
}

/** `Maria Silva <maria@example.com>` when the record is known, else the key (`student 42`, `student with e-mail …`). */
export function studentLabel(student: ResolvedStudent): string {
  const record = student.record;
  if (!record) return describeKey(student.key);
  return nameAndEmail(record) || `student ${record.id}`;
}
