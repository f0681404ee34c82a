/**
 * "Not found" for an e-mail: the student the person probably meant (issue 30).
 * Cheap by design, and never acted on: the caller only prints the guess.
 *
 * 1. The usual slips of the domain (`gmial.com`, `hotmal.com`, `gmail.con`,
 *    `yahoo.com` for `yahoo.com.br`…) are tried as they are, one lookup
 *    each, at most MAX_SLIP_LOOKUPS.
 * 2. When none exists and a scan is cheap, every e-mail of the student list
 *    is compared with the one typed (Damerau-Levenshtein distance). Cheap
 *    means at most SCAN_LIMIT students: the first page's `meta.total` says
 *    so (1 request for a longer list, which is then not read); a server that
 *    sends no total (simplePaginate) is read for SCAN_LIMIT students at most.
 */
import distance from 'damerau-levenshtein';
import type { Api } from '../api/client.js';
import type { Student } from '../api/endpoints/schemas.js';
import { findStudent, listStudents } from '../api/endpoints/students.js';
import type { PageInfo } from '../api/pagination/paginate.js';
import { personName } from '../lib/people.js';

/** A student the person may have meant. */
export interface Suggestion {
  id: string;
  email: string;
  name: string;
}

/** What was looked at: the suggestions, and how far the search went (for the message). */
export interface EmailSearch {
  suggestions: Suggestion[];
  /** E-mails compared in the scan; undefined when there was no scan. */
  compared?: number;
  /** Every e-mail of the list was compared. */
  complete?: boolean;
  /** No scan: the list has this many students, more than SCAN_LIMIT. */
  total?: number;
}

/** The webmail domains students of a Brazilian school use most, their `.br` twins included. */
export const WEBMAIL_DOMAINS: readonly string[] = [
  'gmail.com', 'hotmail.com', 'hotmail.com.br', 'outlook.com', 'outlook.com.br', 'live.com', 'live.com.br', 'msn.com',
  'yahoo.com', 'yahoo.com.br', 'icloud.com', 'me.com', 'uol.com.br', 'bol.com.br', 'terra.com.br', 'ig.com.br',
  'globo.com', 'globomail.com', 'r7.com', 'protonmail.com', 'proton.me', 'aol.com',
];

/** Lookups spent on slips of the domain, nearest first. */
export const MAX_SLIP_LOOKUPS = 4;
/** A list this long or shorter is compared whole: 10 pages of 100. */
export const SCAN_LIMIT = 1000;
const SCAN_PAGE = 100;

/** `.con`, `.comm`… for `.com`, and the same before `.br`, whatever the domain (a school's own too). */
const TLD_SLIPS: ReadonlyArray<[RegExp, string]> = [
  [/\.(con|comm|comn|coom|cmo|ocm|cm|om|vom|xom|cim)$/, '.com'],
  [/\.(con|comm|cmo|ocm|cm|om|vom|xom|cim)\.br$/, '.com.br'],
  [/\.com\.(bt|be|brr|b|r)$/, '.com.br'],
  [/\.combr$/, '.com.br'],
];

const steps = (a: string, b: string) => distance(a, b).steps;
const KNOWN = new Set(WEBMAIL_DOMAINS);

/**
 * The domains `typed` may be a slip of, nearest first, without itself: the
 * known webmail domains within 2 edits of it or of it with its TLD fixed (or
 * `.com` added), and `.br` added or dropped where that makes a known domain;
 * for a domain nowhere near a known one (a company's), its TLD fixed.
 */
export function domainSlips(typed: string): string[] {
  const domain = typed.toLowerCase();
  const spellings = new Set<string>([domain]);
  for (const [slip, tld] of TLD_SLIPS) if (slip.test(domain)) spellings.add(domain.replace(slip, tld));
  if (!domain.includes('.')) for (const tld of ['.com', '.com.br']) spellings.add(`${domain}${tld}`);
  const ranked = new Map<string, number>();
  const offer = (candidate: string, rank: number) => {
    if (candidate !== domain && rank < (ranked.get(candidate) ?? Infinity)) ranked.set(candidate, rank);
  };
  for (const spelling of spellings) {
    const fixed = spelling === domain ? 0 : 1;
    if (KNOWN.has(`${spelling}.br`)) offer(`${spelling}.br`, fixed + 1);
    if (spelling.endsWith('.br') && KNOWN.has(spelling.slice(0, -3))) offer(spelling.slice(0, -3), fixed + 1);
    for (const webmail of WEBMAIL_DOMAINS) {
      const apart = steps(spelling, webmail);
      if (apart <= 2) offer(webmail, fixed + apart);
    }
  }
  if (ranked.size === 0) for (const spelling of spellings) offer(spelling, 1);
  return [...ranked].sort(([, a], [, b]) => a - b).map(([candidate]) => candidate);
}

/** How far two e-mails may be apart to be offered: 1 edit for a short one, 2 from 12 characters. */
const allowedSteps = (email: string) => (email.length >= 12 ? 2 : 1);

/** The students whose e-mail is within a slip of `typed`, nearest first, at most 3. */
export function closeEmails(typed: string, students: Iterable<Suggestion>): Suggestion[] {
  const wanted = typed.toLowerCase();
  const limit = allowedSteps(wanted);
  const near: Array<{ student: Suggestion; apart: number }> = [];
  for (const student of students) {
    const email = student.email.toLowerCase();
    // Cheap bound first: lengths that far apart are at least that many edits apart.
    if (email === wanted || Math.abs(email.length - wanted.length) > limit) continue;
    const apart = steps(wanted, email);
    if (apart <= limit) near.push({ student, apart });
  }
  return near.sort((a, b) => a.apart - b.apart).slice(0, 3).map(({ student }) => student);
}

const suggestionOf = (student: Student): Suggestion => ({ id: student.id, email: student.email ?? '', name: personName(student) });

/** The e-mails of the student list, as far as it was read: all of them (`complete`), or none when the list is too long. */
interface Scan {
  students: Suggestion[];
  complete: boolean;
  /** The list's length, when the server said. */
  total?: number;
}

/** The student list's e-mails, read once per run (per Api) when cheap: a bulk run with many unknown e-mails pays once. */
const scans = new WeakMap<Api, Promise<Scan>>();

function scanList(api: Api): Promise<Scan> {
  let scan = scans.get(api);
  if (!scan) {
    scan = readIfCheap(api);
    scans.set(api, scan);
    // A failed read may succeed later in the run.
    scan.catch(() => scans.delete(api));
  }
  return scan;
}

async function readIfCheap(api: Api): Promise<Scan> {
  let info: PageInfo | undefined;
  const students: Suggestion[] = [];
  const keep = (student: Student) => void (student.email && students.push(suggestionOf(student)));
  for await (const student of listStudents(api, { all: false, perPage: SCAN_PAGE, concurrency: 1, onInfo: (first) => (info = first) })) keep(student);
  const total = info?.total;
  if (total !== undefined && total > SCAN_LIMIT) return { students: [], complete: false, total };
  if (!info?.hasMore) return { students, complete: true, total };
  // Short enough, or no total said (simplePaginate): read on, SCAN_LIMIT students at most.
  let read = SCAN_PAGE;
  for await (const student of listStudents(api, { startPage: 2, all: true, perPage: SCAN_PAGE, limit: SCAN_LIMIT - SCAN_PAGE + 1, concurrency: 4 })) {
    if (++read > SCAN_LIMIT) return { students, complete: false, total };
    keep(student);
  }
  return { students, complete: true, total };
}

/**
 * The students `email` may have been meant for. Best effort: a failure on
 * the way (a 429, a timeout) ends the search with what it found so far.
 */
export async function searchEmailSlips(api: Api, email: string): Promise<EmailSearch> {
  const at = email.lastIndexOf('@');
  if (at < 1) return { suggestions: [] };
  const local = email.slice(0, at);
  try {
    for (const domain of domainSlips(email.slice(at + 1)).slice(0, MAX_SLIP_LOOKUPS)) {
      const found = await findStudent(api, { kind: 'email', value: `${local}@${domain}` });
      if (found?.email) return { suggestions: [suggestionOf(found)] };
    }
    const scan = await scanList(api);
    const suggestions = closeEmails(email, scan.students);
    if (!scan.complete && scan.students.length === 0) return { suggestions, total: scan.total };
    return { suggestions, compared: scan.students.length, complete: scan.complete };
  } catch {
    return { suggestions: [] };
  }
}

/** `Did you mean: thais.leao21@gmail.com (Thaís Leão Simões)?`, or why nothing is offered. */
export function describeSearch(search: EmailSearch, email: string): string {
  const label = (s: Suggestion) => (s.name ? `${s.email} (${s.name})` : s.email);
  const [first, ...others] = search.suggestions;
  if (first && others.length === 0) return `Did you mean: ${label(first)}?`;
  if (first) return `Did you mean one of these?${search.suggestions.map((s) => `\n  ${label(s)}`).join('')}`;
  const local = email.slice(0, email.lastIndexOf('@'));
  const count = (n: number) => n.toLocaleString('en-US');
  if (search.total !== undefined) {
    return `No usual slip of the domain matches a student, and the student list has ${count(search.total)} students, too many to compare every e-mail; to look through it: members students search ${JSON.stringify(local || email)}`;
  }
  if (search.compared !== undefined) {
    const read = search.complete ? `all ${count(search.compared)}` : `the first ${count(search.compared)}`;
    return `No student has a close e-mail (usual slips of the domain tried, ${read} e-mails compared); to search by a part of the name or e-mail: members students search ${JSON.stringify(local || email)}`;
  }
  return '';
}
