import { formatTimestamp } from './dates.js';
import { Random } from './random.js';
import type {
  CourseRecord,
  ProductRecord,
  ProgressRecord,
  SandboxState,
  SandboxTokens,
  StudentRecord,
  SubscriptionRecord,
} from './types.js';

export interface NewStudent {
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  birth: string | null;
  document: string | null;
  reference_id: string | null;
}

interface Derived {
  version: number;
  value: unknown;
}

/**
 * The live state of the sandbox: records, their indexes, and the operations
 * the API performs on them. Every change bumps `version`, which invalidates
 * values computed with `derive` and tells listeners (persistence) to save.
 */
export class SandboxStore {
  readonly seed: number;
  readonly tokens: SandboxTokens;
  readonly products: readonly ProductRecord[];
  readonly courses: readonly CourseRecord[];
  private revision = 0;
  private readonly ids: Random;
  private readonly studentList: StudentRecord[] = [];
  private readonly subscriptionList: SubscriptionRecord[] = [];
  private readonly studentsById = new Map<string, StudentRecord>();
  private readonly studentsByEmail = new Map<string, StudentRecord>();
  private readonly studentsByDocument = new Map<string, StudentRecord>();
  private readonly studentsByReference = new Map<string, StudentRecord>();
  private readonly subscriptionsById = new Map<string, SubscriptionRecord>();
  private readonly subscriptionsByStudent = new Map<string, SubscriptionRecord[]>();
  private readonly productsById: Map<string, ProductRecord>;
  private readonly coursesById: Map<string, CourseRecord>;
  /** course id → student id → progress */
  private readonly progressByCourse = new Map<string, Map<string, ProgressRecord>>();
  private readonly derived = new WeakMap<object, Derived>();
  private readonly listeners: (() => void)[] = [];

  constructor(state: SandboxState) {
    this.seed = state.seed;
    this.tokens = state.tokens;
    this.ids = new Random(state.id_state);
    this.products = state.products;
    this.courses = state.courses;
    this.productsById = new Map(state.products.map((product) => [product.id, product]));
    this.coursesById = new Map(state.courses.map((course) => [course.id, course]));
    for (const course of state.courses) this.progressByCourse.set(course.id, new Map());
    for (const student of state.students) this.indexStudent(student);
    for (const subscription of state.subscriptions) this.indexSubscription(subscription);
    for (const progress of state.progress) this.progressByCourse.get(progress.course_id)?.set(progress.student_id, progress);
  }

  get version(): number {
    return this.revision;
  }

  /** Called after every change. */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Students in creation order. */
  get students(): readonly StudentRecord[] {
    return this.studentList;
  }

  /** Subscriptions in creation order, every status. */
  get subscriptions(): readonly SubscriptionRecord[] {
    return this.subscriptionList;
  }

  student(id: string): StudentRecord | undefined {
    return this.studentsById.get(id);
  }

  studentByEmail(email: string): StudentRecord | undefined {
    return this.studentsByEmail.get(email.toLowerCase());
  }

  studentByDocument(document: string): StudentRecord | undefined {
    return this.studentsByDocument.get(document);
  }

  studentByReference(reference: string): StudentRecord | undefined {
    return this.studentsByReference.get(reference);
  }

  product(id: string): ProductRecord | undefined {
    return this.productsById.get(id);
  }

  course(id: string): CourseRecord | undefined {
    return this.coursesById.get(id);
  }

  subscription(id: string): SubscriptionRecord | undefined {
    return this.subscriptionsById.get(id);
  }

  subscriptionsOf(studentId: string): readonly SubscriptionRecord[] {
    return this.subscriptionsByStudent.get(studentId) ?? [];
  }

  subscriptionFor(studentId: string, productId: string): SubscriptionRecord | undefined {
    return this.subscriptionsOf(studentId).find((subscription) => subscription.product_id === productId);
  }

  /** Progress rows of a course, keyed by student id (kept after a product is revoked, as history). */
  progressOf(courseId: string): ReadonlyMap<string, ProgressRecord> {
    return this.progressByCourse.get(courseId) ?? new Map();
  }

  /** `compute(this)`, cached until the next change. `compute` must be a stable (module-level) function. */
  derive<T>(compute: (store: SandboxStore) => T): T {
    const cached = this.derived.get(compute);
    if (cached?.version === this.revision) return cached.value as T;
    const value = compute(this);
    this.derived.set(compute, { version: this.revision, value });
    return value;
  }

  createStudent(input: NewStudent, now = Date.now()): StudentRecord {
    const timestamp = formatTimestamp(now);
    const student: StudentRecord = {
      id: this.newId(),
      ...input,
      photo_url: null,
      genre: null,
      created_at: timestamp,
      updated_at: timestamp,
      score: 0,
      posts: 0,
      comments: 0,
      replies: 0,
    };
    this.indexStudent(student);
    this.changed();
    return student;
  }

  deleteStudent(id: string): boolean {
    const student = this.studentsById.get(id);
    if (!student) return false;
    removeItem(this.studentList, student);
    this.studentsById.delete(id);
    this.studentsByEmail.delete(student.email.toLowerCase());
    if (student.document !== null) this.studentsByDocument.delete(student.document);
    if (student.reference_id !== null) this.studentsByReference.delete(student.reference_id);
    for (const subscription of this.subscriptionsOf(id)) {
      removeItem(this.subscriptionList, subscription);
      this.subscriptionsById.delete(subscription.id);
    }
    this.subscriptionsByStudent.delete(id);
    for (const progress of this.progressByCourse.values()) progress.delete(id);
    this.changed();
    return true;
  }

  /** Subscribes the student to the product with access released; enrols them in its courses. */
  grant(studentId: string, productId: string, accessionDate: string, expirationDate: string | null, now = Date.now()): SubscriptionRecord {
    const timestamp = formatTimestamp(now);
    const subscription: SubscriptionRecord = {
      id: this.newId(),
      student_id: studentId,
      product_id: productId,
      active: 1,
      status: 'active',
      payment_last_date: null,
      accession_date: accessionDate,
      expiration_date: expirationDate,
      cancel_date: null,
      created_at: timestamp,
      updated_at: timestamp,
    };
    this.indexSubscription(subscription);
    for (const courseId of this.product(productId)?.course_ids ?? []) {
      const progress = this.progressByCourse.get(courseId);
      if (progress && !progress.has(studentId)) {
        progress.set(studentId, { student_id: studentId, course_id: courseId, completion: 0, last_access_at: null, finished_at: null });
      }
    }
    this.changed();
    return subscription;
  }

  revoke(studentId: string, productId: string): boolean {
    const subscription = this.subscriptionFor(studentId, productId);
    if (!subscription) return false;
    removeItem(this.subscriptionList, subscription);
    removeItem(this.subscriptionsByStudent.get(studentId) ?? [], subscription);
    this.subscriptionsById.delete(subscription.id);
    this.changed();
    return true;
  }

  setScore(student: StudentRecord, score: number): void {
    student.score = score;
    this.changed();
  }

  /** The state as plain data (shares the records: serialise it before the next change). */
  toState(): SandboxState {
    const progress: ProgressRecord[] = [];
    for (const rows of this.progressByCourse.values()) for (const row of rows.values()) progress.push(row);
    return {
      format: 1,
      seed: this.seed,
      tokens: this.tokens,
      id_state: this.ids.state,
      products: this.products,
      courses: this.courses,
      students: this.studentList,
      subscriptions: this.subscriptionList,
      progress,
    };
  }

  private indexStudent(student: StudentRecord): void {
    this.studentList.push(student);
    this.studentsById.set(student.id, student);
    this.studentsByEmail.set(student.email.toLowerCase(), student);
    if (student.document !== null) this.studentsByDocument.set(student.document, student);
    if (student.reference_id !== null) this.studentsByReference.set(student.reference_id, student);
  }

  private indexSubscription(subscription: SubscriptionRecord): void {
    this.subscriptionList.push(subscription);
    this.subscriptionsById.set(subscription.id, subscription);
    const own = this.subscriptionsByStudent.get(subscription.student_id);
    if (own) own.push(subscription);
    else this.subscriptionsByStudent.set(subscription.student_id, [subscription]);
  }

  /** Ids minted after seeding continue a persisted PRNG stream; redraw on the (unlikely) clash. */
  private newId(): string {
    for (;;) {
      const id = this.ids.uuid();
      if (!this.studentsById.has(id) && !this.subscriptionsById.has(id)) return id;
    }
  }

  private changed(): void {
    this.revision++;
    for (const listener of this.listeners) listener();
  }
}

function removeItem<T>(items: T[], item: T): void {
  const index = items.indexOf(item);
  if (index >= 0) items.splice(index, 1);
}
