/**
 * The platform's state in one walk: every student with every subscription,
 * read from `GET /api/v1/students?with=subscriptions&per_page=100` (issue 28).
 * A bulk run that would otherwise look up each row (2–3 requests a row) reads
 * this instead when it costs fewer requests (domain/read-plan.ts decides).
 *
 * Interface (also used by `members sync`):
 * - `openSnapshot(api, options)` reads the first page only and returns its
 *   facts (`first`, for the estimator) and `read()`, which walks the rest;
 *   `readSnapshot(api, options)` does both.
 * - `Snapshot.findStudent(key)`: a STUDENT key (string or parsed) resolved as
 *   the per-row lookups resolve it (resolve.ts, api/endpoints/students.ts):
 *   id; e-mail case-insensitively; document as typed, then in its other CPF
 *   spelling, then (bare digits) as an id, then (digits that may be one) as a
 *   phone; reference; phone by its national digits (undefined when several
 *   students share it: `phoneHolders(key)` lists them).
 * - `Snapshot.subscription(studentId, productId)`, `Snapshot.holders(productId)`.
 * - `Snapshot.pages` (requests spent), `Snapshot.total` (students read),
 *   `Snapshot.size` (students kept: `keep` may keep only those a file names,
 *   and only some products' subscriptions; holders() then lists those only).
 * - `Snapshot.record(...)`: a change the run made, so that a later row sees it.
 *
 * Only what plans need is kept (keys, name, subscription and product ids,
 * dates, access, status; repeated strings shared), so 100,000 students with 3 subscriptions
 * each fit in a few tens of MB. The walk checks the pages add up (paginate.ts).
 */
import type { Api } from '../api/client.js';
import { fetchPage } from '../api/pagination/pages.js';
import { walkPages, type Page, type PageInfo } from '../api/pagination/paginate.js';
import { Student, type Subscription } from '../api/endpoints/schemas.js';
import { canonicalValue, cpfSpelling, parseStudentKey, type CpfSpelling, type StudentKey } from '../api/endpoints/student-key.js';
import { nationalPhone } from '../lib/phone.js';
import { CliError, ExitCode } from '../lib/errors.js';
import { personName } from '../lib/people.js';
import { batchesOf } from '../lib/batches.js';
import { hasAccess } from './changes.js';

export interface SnapshotStudent {
  id: string;
  email?: string;
  document?: string;
  reference?: string;
  /** The phone's national digits (lib/phone.ts). */
  phone?: string;
  /** `full_name`, else first and last name; '' when none. */
  name: string;
}

export interface SnapshotSubscription {
  /** The subscription's own id, for the audit log (undo names it). */
  id?: string | number;
  studentId: string;
  productId: string;
  accessionDate?: string;
  expirationDate?: string;
  hasAccess: boolean;
  status?: string;
}

/** What the first page tells about the whole walk (for the estimator). */
export interface FirstPage {
  /** Records on the first page. */
  records: number;
  /** The page size the server really uses (`meta.per_page`), when it says. */
  perPage?: number;
  lastPage?: number;
  total?: number;
  /** It links to a next page. */
  hasMore: boolean;
  /** Every record carries its `subscriptions` (the server honoured `with=subscriptions`). */
  withSubscriptions: boolean;
  /** How the server writes the CPFs on the page (the more of them, on a tie punctuated); undefined when it holds none. */
  cpfSpelling?: CpfSpelling;
}

export interface SnapshotOptions {
  /** Called after each page with the pages read so far (progress). */
  onPage?: (pages: number) => void;
  signal?: AbortSignal;
  /** Pages in flight at first (default 8) and at most (default: as many) when the last page is known. */
  concurrency?: number;
  maxConcurrency?: number;
  /** Read the students alone (an import needs no subscriptions): smaller pages. Default true. */
  subscriptions?: boolean;
  /** Keep only what a run needs (default: everything, as `members sync` needs it). */
  keep?: SnapshotKeep;
}

/**
 * What a snapshot keeps of the walk: the students some key names (a bulk
 * file's rows) and the subscriptions of some products. The walk still reads
 * every page; memory then grows with the file, not with the platform.
 */
export interface SnapshotKeep {
  students?: StudentKeyFilter;
  products?: ReadonlySet<string>;
}

/** The students a set of STUDENT keys can name, matched as findStudent matches them. */
export class StudentKeyFilter {
  private readonly ids = new Set<string>();
  private readonly emails = new Set<string>();
  private readonly documents = new Set<string>();
  private readonly references = new Set<string>();
  private readonly phones = new Set<string>();

  constructor(keys: Iterable<StudentKey>) {
    for (const key of keys) {
      if (key.kind === 'id') this.ids.add(key.value);
      else if (key.kind === 'email') this.emails.add(emailKey(key.value));
      else if (key.kind === 'reference') this.references.add(key.value);
      else if (key.kind === 'phone') this.phones.add(canonicalValue(key));
      else {
        this.documents.add(key.value).add(key.also ?? key.value);
        if (key.orId) this.ids.add(key.value);
      }
      if ((key.kind === 'id' || key.kind === 'document') && key.orPhone) this.phones.add(nationalPhone(key.value));
    }
  }

  wants(student: Pick<Student, 'id' | 'email' | 'document' | 'reference_id' | 'phone'>): boolean {
    return this.ids.has(student.id)
      || (Boolean(student.email) && this.emails.has(emailKey(student.email as string)))
      || (Boolean(student.document) && this.documents.has(student.document as string))
      || (Boolean(student.reference_id) && this.references.has(student.reference_id as string))
      || (this.phones.size > 0 && Boolean(student.phone) && this.phones.has(nationalPhone(student.phone as string)));
  }
}

export const SNAPSHOT_PATH = '/api/v1/students';
/** Asked for; a server may cap it or ignore it, and the first page tells what it used. */
export const SNAPSHOT_PER_PAGE = 100;
/** Pages in flight from the start, as `--all` lists (commands/shared/list-flags.ts): the pacer spaces them under a rate limit. */
const SNAPSHOT_CONCURRENCY = 8;

const emailKey = (email: string) => email.toLowerCase();

export class Snapshot {
  private readonly byId = new Map<string, SnapshotStudent>();
  private readonly byEmail = new Map<string, SnapshotStudent>();
  private readonly byDocument = new Map<string, SnapshotStudent>();
  private readonly byReference = new Map<string, SnapshotStudent>();
  /** Several when students share the phone. */
  private readonly byPhone = new Map<string, SnapshotStudent[]>();
  private readonly held = new Map<string, SnapshotSubscription[]>();
  private readonly titles = new Map<string, string>();
  /** One copy of each repeated string (product ids, statuses, dates). */
  private readonly interned = new Map<string, string>();
  private byProduct?: Map<string, SnapshotSubscription[]>;
  /** Requests the walk took. */
  pages = 0;
  /** Students the walk read (kept or not). */
  total = 0;

  constructor(private readonly keep: SnapshotKeep = {}) {}

  /** Students kept (every one read, unless `keep.students` chose). */
  get size(): number {
    return this.byId.size;
  }

  /** The student a key names, or undefined (then the caller may still look it up: the student may be newer than the snapshot). */
  findStudent(key: string | StudentKey): SnapshotStudent | undefined {
    const parsed = typeof key === 'string' ? parseStudentKey(key) : key;
    switch (parsed.kind) {
      case 'id':
        return this.byId.get(parsed.value) ?? this.onlyPhone(parsed);
      case 'email':
        return this.byEmail.get(emailKey(parsed.value));
      case 'reference':
        return this.byReference.get(parsed.value);
      case 'phone':
        return this.onlyPhone(parsed);
      case 'document':
        return this.byDocument.get(parsed.value)
          ?? this.byDocument.get(parsed.also ?? parsed.value)
          ?? (parsed.orId ? this.byId.get(parsed.value) : undefined)
          ?? this.onlyPhone(parsed);
    }
  }

  /** The students whose phone a key names (`phone:`, or digits that may be one): several when they share it. */
  phoneHolders(key: StudentKey): readonly SnapshotStudent[] {
    if (key.kind === 'phone') return this.byPhone.get(canonicalValue(key)) ?? [];
    return (key.kind === 'id' || key.kind === 'document') && key.orPhone ? this.byPhone.get(nationalPhone(key.value)) ?? [] : [];
  }

  private onlyPhone(key: StudentKey): SnapshotStudent | undefined {
    const holders = this.phoneHolders(key);
    return holders.length === 1 ? holders[0] : undefined;
  }

  subscription(studentId: string, productId: string): SnapshotSubscription | undefined {
    return this.held.get(studentId)?.find((subscription) => subscription.productId === productId);
  }

  /** The subscriptions of a product, with or without access (of the students kept). */
  holders(productId: string): readonly SnapshotSubscription[] {
    this.byProduct ??= this.indexHolders();
    return this.byProduct.get(productId) ?? [];
  }

  /** The product's title as the subscriptions carried it, if any. */
  productTitle(productId: string): string | undefined {
    return this.titles.get(productId);
  }

  /** A change this run made (granted: the new subscription; revoked: undefined), for the rows after it. */
  record(studentId: string, productId: string, subscription: Subscription | undefined): void {
    const list = (this.held.get(studentId) ?? []).filter((held) => held.productId !== productId);
    if (this.byProduct) {
      const holders = (this.byProduct.get(productId) ?? []).filter((held) => held.studentId !== studentId);
      this.byProduct.set(productId, holders);
    }
    if (subscription) {
      const compact = this.compact(studentId, subscription);
      list.push(compact);
      if (this.byProduct) addHolder(this.byProduct, compact);
    }
    this.held.set(studentId, list);
  }

  /** Adds one student record of the list. */
  add(student: Student): void {
    this.total++;
    if (this.keep.students && !this.keep.students.wants(student)) return;
    // One literal with every field (undefined when absent): V8 then keeps them all inside the object.
    const phone = student.phone ? nationalPhone(student.phone) : '';
    const entry: SnapshotStudent = {
      id: student.id, name: personName(student),
      email: student.email || undefined, document: student.document || undefined, reference: student.reference_id || undefined,
      phone: phone.length >= 10 ? phone : undefined,
    };
    this.byId.set(entry.id, entry);
    if (entry.email) this.byEmail.set(emailKey(entry.email), entry);
    if (entry.document) this.byDocument.set(entry.document, entry);
    if (entry.reference) this.byReference.set(entry.reference, entry);
    if (entry.phone) {
      const holders = this.byPhone.get(entry.phone);
      if (holders) holders.push(entry);
      else this.byPhone.set(entry.phone, [entry]);
    }
    const { products } = this.keep;
    const all = student.subscriptions ?? [];
    const subscriptions = products ? all.filter((subscription) => products.has(subscription.product_id)) : all;
    if (subscriptions.length > 0) this.held.set(entry.id, subscriptions.map((subscription) => this.compact(entry.id, subscription)));
  }

  private compact(studentId: string, subscription: Subscription): SnapshotSubscription {
    const productId = this.intern(subscription.product_id);
    const title = subscription.product?.title;
    if (title && !this.titles.has(productId)) this.titles.set(productId, title);
    const known = (text: string | null | undefined) => (text ? this.intern(text) : undefined);
    return {
      id: subscription.id ?? undefined, studentId, productId, hasAccess: hasAccess(subscription),
      accessionDate: known(subscription.accession_date), expirationDate: known(subscription.expiration_date), status: known(subscription.status),
    };
  }

  private intern(text: string): string {
    const known = this.interned.get(text);
    if (known !== undefined) return known;
    this.interned.set(text, text);
    return text;
  }

  /** The subscriptions by product, built the first time holders() is asked (only `members sync` asks). */
  private indexHolders(): Map<string, SnapshotSubscription[]> {
    const map = new Map<string, SnapshotSubscription[]>();
    for (const list of this.held.values()) for (const subscription of list) addHolder(map, subscription);
    return map;
  }

  /** A held subscription in the API's shape, for the grant and revoke cores (domain/changes.ts). */
  asSubscription(subscription: SnapshotSubscription): Subscription {
    const title = this.titles.get(subscription.productId);
    return {
      ...(subscription.id === undefined ? {} : { id: subscription.id }),
      product_id: subscription.productId,
      active: subscription.hasAccess ? 1 : 0,
      status: subscription.status ?? null,
      accession_date: subscription.accessionDate ?? null,
      expiration_date: subscription.expirationDate ?? null,
      ...(title === undefined ? {} : { product: { id: subscription.productId, title } }),
    };
  }
}

function addHolder(map: Map<string, SnapshotSubscription[]>, subscription: SnapshotSubscription): void {
  const list = map.get(subscription.productId);
  if (list) list.push(subscription);
  else map.set(subscription.productId, [subscription]);
}

/** A student in the API's shape, as much of it as the snapshot keeps (for labels: `Maria Silva <maria@example.com>`). */
export function asStudent(student: SnapshotStudent): Student {
  return { id: student.id, full_name: student.name, email: student.email ?? null, document: student.document ?? null, reference_id: student.reference ?? null };
}

/** The server sent students without their `subscriptions` although asked: a snapshot would take every student for holding nothing. */
export class SubscriptionsMissingError extends CliError {
  constructor() {
    super(
      'the server sent the student list without the students\' subscriptions (it ignores with=subscriptions); run with --strategy rows',
      ExitCode.internal,
    );
  }
}

export interface OpenSnapshot {
  first: FirstPage;
  /** Asks one page further on (a server that counts nothing: domain/read-plan.ts probePage) and tells how many records it holds. */
  probe(page: number): Promise<number>;
  /** Walks every page (the first one is not asked again) into a Snapshot. */
  read(): Promise<Snapshot>;
}

/** Reads the first page: what the estimator needs, and the start of the walk. */
export async function openSnapshot(api: Api, options: SnapshotOptions = {}): Promise<OpenSnapshot> {
  const withSubscriptions = options.subscriptions !== false;
  const query = { with: withSubscriptions ? 'subscriptions' : undefined, per_page: SNAPSHOT_PER_PAGE };
  const fetch = (req: { path: string; query: typeof query & { page?: number } }) => {
    options.signal?.throwIfAborted();
    return fetchPage(api, Student, req);
  };
  const firstPage = await fetch({ path: SNAPSHOT_PATH, query: { ...query, page: 1 } });
  const first = firstFacts(firstPage);
  let used = false;
  return {
    first,
    probe: async (page) => (await fetch({ path: SNAPSHOT_PATH, query: { ...query, page } })).records.length,
    async read() {
      if (used) throw new Error('a snapshot is read once');
      used = true;
      const snapshot = new Snapshot(options.keep);
      const counted = async (page: Promise<Page<Student>>) => {
        const got = await page;
        snapshot.pages++;
        options.onPage?.(snapshot.pages);
        return got;
      };
      const walk = walkPages(
        (page) => counted(page === 1 ? Promise.resolve(firstPage) : fetch({ path: SNAPSHOT_PATH, query: { ...query, page } })),
        (link) => counted(fetch({ path: link, query })),
        { all: true, concurrency: options.concurrency ?? SNAPSHOT_CONCURRENCY, maxConcurrency: options.maxConcurrency },
      );
      for await (const batch of batchesOf(walk)) {
        for (const student of batch) {
          if (withSubscriptions && student.subscriptions === undefined) throw new SubscriptionsMissingError();
          snapshot.add(student);
        }
        options.signal?.throwIfAborted();
      }
      return snapshot;
    },
  };
}

export async function readSnapshot(api: Api, options: SnapshotOptions = {}): Promise<Snapshot> {
  return (await openSnapshot(api, options)).read();
}

function firstFacts(page: Page<Student>): FirstPage {
  const info: PageInfo = page.info;
  const facts: FirstPage = {
    records: page.records.length,
    hasMore: Boolean(page.next) || (info.lastPage !== undefined && (info.currentPage ?? 1) < info.lastPage),
    withSubscriptions: page.records.every((student) => student.subscriptions !== undefined),
  };
  if (info.perPage !== undefined && info.perPage > 0) facts.perPage = info.perPage;
  if (info.lastPage !== undefined) facts.lastPage = info.lastPage;
  if (info.total !== undefined) facts.total = info.total;
  const spelling = spellingOf(page.records);
  if (spelling !== undefined) facts.cpfSpelling = spelling;
  return facts;
}

function spellingOf(students: readonly Pick<Student, 'document'>[]): CpfSpelling | undefined {
  let punctuated = 0;
  let bare = 0;
  for (const student of students) {
    const spelling = student.document ? cpfSpelling(student.document) : undefined;
    if (spelling === 'punctuated') punctuated++;
    else if (spelling === 'bare') bare++;
  }
  if (punctuated + bare === 0) return undefined;
  return bare > punctuated ? 'bare' : 'punctuated';
}
