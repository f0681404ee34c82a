import { COURSES, LESSON_TITLES, PRODUCTS, SCHOOL_DOMAIN } from './catalog.js';
import { DAY_MS, dayOf, dayStartMs, formatDay, formatTimestamp } from './dates.js';
import { AREA_CODES, EMAIL_DOMAINS, EMAIL_TAGS, FEMALE_NAMES, LAST_NAMES, MALE_NAMES } from './names.js';
import { Random, streamSeed } from './random.js';
import { flat, slugify } from './strings.js';
import type {
  CourseRecord,
  ProductRecord,
  ProgressRecord,
  SandboxState,
  SandboxTokens,
  StudentRecord,
  SubscriptionRecord,
  SubscriptionStatus,
} from './types.js';

/** Seeded data describes the platform as of this day, so it never depends on the wall clock. */
const ANCHOR_DAY = dayOf(2025, 6, 30);
const FIRST_STUDENT_DAY = dayOf(2020, 1, 6);
const CATALOG_DAY = dayOf(2019, 11, 4);

const STATUSES: readonly SubscriptionStatus[] = ['active', 'inactive', 'canceled', 'refunded', 'chargeback'];
const STATUS_WEIGHTS = [58, 10, 16, 9, 7];
/** Chance that a subscription in each status (same order) keeps access released. */
const ACCESS_CHANCE = [0.93, 0.05, 0.3, 0.2, 0];
/** Every 20 students, one canceled and one refunded subscription keep access, so small datasets show the case. */
const KEPT_ACCESS_EVERY = 20;

function deriveTokens(seed: number): SandboxTokens {
  const random = new Random(streamSeed(seed, 'tokens'));
  return { api: `sbx_api_${random.hex(16)}`, developer: `sbx_dev_${random.hex(16)}`, platform: `sbx_plat_${random.hex(16)}` };
}

export function generateState(seed: number, studentCount: number): SandboxState {
  const { courses, products } = generateCatalog(new Random(streamSeed(seed, 'catalog')));
  const people = new PeopleGenerator(new Random(streamSeed(seed, 'students')), courses, products);
  for (let index = 0; index < studentCount; index++) people.add(index, studentCount);
  return {
    format: 1,
    seed,
    tokens: deriveTokens(seed),
    id_state: streamSeed(seed, 'runtime-ids'),
    products,
    courses,
    students: people.students,
    subscriptions: people.subscriptions,
    progress: people.progress,
  };
}

function timestampOn(random: Random, day: number): string {
  return formatTimestamp(dayStartMs(day) + random.int(8 * 3600, 23 * 3600) * 1000);
}

function generateCatalog(random: Random): { courses: CourseRecord[]; products: ProductRecord[] } {
  const courses = COURSES.map((definition): CourseRecord => {
    const slug = slugify(definition.title);
    const live = definition.retired ? '0' : '1';
    return {
      id: random.uuid(),
      title: definition.title,
      description: definition.description,
      status: definition.retired ? 'inactive' : 'active',
      slug,
      url_upsell: definition.retired ? null : `https://www.${SCHOOL_DOMAIN}/premium`,
      text_upsell: definition.retired ? null : 'Conheça a Assinatura Premium',
      blocked: definition.retired ? 1 : 0,
      published: definition.retired ? 0 : 1,
      modules: definition.modules.map((moduleTitle) => {
        const lessonCount = random.int(3, 6);
        const titles = [...LESSON_TITLES.slice(0, lessonCount - 1), LESSON_TITLES[LESSON_TITLES.length - 1] ?? ''];
        return {
          id: random.uuid(),
          title: moduleTitle,
          description: `Módulo ${moduleTitle} do curso ${definition.title}.`,
          slug: slugify(moduleTitle),
          blocked: '0',
          published: live,
          url_upsell: null,
          text_upsell: null,
          lessons: titles.map((title, position) => ({
            id: random.uuid(),
            title,
            subtitle: moduleTitle,
            slug: `${position + 1}-${slugify(title)}`,
            // The last lesson of some modules is a bonus locked behind an upsell.
            blocked: position === titles.length - 1 && random.chance(0.3) ? '1' : '0',
            published: live,
            url_upsell: null,
            text_upsell: null,
          })),
        };
      }),
    };
  });
  const products = PRODUCTS.map((definition, index): ProductRecord => {
    const created = timestampOn(random, CATALOG_DAY + index * 17);
    const lifetime = definition.period === 0;
    return {
      id: random.uuid(),
      title: definition.title,
      description: definition.description,
      period: definition.period,
      external_checkout_product: index % 3 === 2 ? null : `hotmart:${random.int(100000, 999999)}`,
      lifetime,
      status: definition.discontinued ? 'inactive' : 'active',
      type: lifetime ? 'one_time' : 'recurring',
      sales_page_url: `https://www.${SCHOOL_DOMAIN}/${slugify(definition.title)}`,
      support_email: `suporte@${SCHOOL_DOMAIN}`,
      trial: lifetime ? '0' : '7',
      upsell: index % 2 === 0 ? '1' : '0',
      upsell_url: index % 2 === 0 ? `https://www.${SCHOOL_DOMAIN}/premium` : null,
      created_at: created,
      updated_at: created,
      course_ids: definition.courses.map((course) => courses[course]?.id ?? ''),
    };
  });
  return { courses, products };
}

/** Generates students one at a time, each with subscriptions, progress and scores. */
class PeopleGenerator {
  readonly students: StudentRecord[] = [];
  readonly subscriptions: SubscriptionRecord[] = [];
  readonly progress: ProgressRecord[] = [];
  private readonly emails = new Set<string>();
  /** Next numeric suffix to try per taken address, so popular names do not rescan 2, 3, 4… */
  private readonly emailSuffixes = new Map<string, number>();
  private readonly slugs = new Map<string, string>();
  private readonly documents = new Set<string>();
  private readonly productWeights = PRODUCTS.map((product) => product.weight);
  private readonly lessonCounts: Map<string, number>;
  private readonly engagement: Map<string, number>;

  constructor(
    private readonly random: Random,
    courses: readonly CourseRecord[],
    private readonly products: readonly ProductRecord[],
  ) {
    this.lessonCounts = new Map(courses.map((course) => [course.id, course.modules.reduce((sum, m) => sum + m.lessons.length, 0)]));
    this.engagement = new Map(courses.map((course, index) => [course.id, COURSES[index]?.engagement ?? 0.5]));
  }

  add(index: number, total: number): void {
    const random = this.random;
    const female = random.chance(0.55);
    const firstName = random.pick(female ? FEMALE_NAMES : MALE_NAMES);
    const lastName = random.chance(0.015) ? null : random.chance(0.4) ? flat(`${random.pick(LAST_NAMES)} ${random.pick(LAST_NAMES)}`) : random.pick(LAST_NAMES);
    // Creation times grow with the index, as auto-increment rows would.
    const span = (ANCHOR_DAY - 30 - FIRST_STUDENT_DAY) * DAY_MS;
    const createdMs = dayStartMs(FIRST_STUDENT_DAY) + Math.floor((span * (index + random.next())) / Math.max(total, 1) / 1000) * 1000;
    const createdAt = formatTimestamp(createdMs);
    const id = random.uuid();
    const student: StudentRecord = {
      id,
      first_name: firstName,
      last_name: lastName,
      email: this.email(firstName, lastName),
      photo_url: random.chance(0.7) ? flat(`https://cdn.${SCHOOL_DOMAIN}/avatars/${id}.jpg`) : null,
      phone: random.chance(0.06) ? null : flat(`+55 ${random.pick(AREA_CODES)} 9${random.int(1000, 9999)}-${random.int(0, 9999).toString().padStart(4, '0')}`),
      genre: random.chance(0.05) ? null : female ? 'female' : 'male',
      birth: random.chance(0.12) ? null : formatDay(dayOf(random.int(1955, 2007), 1, 1) + random.int(0, 364)),
      document: this.document(index),
      reference_id: random.chance(0.1) ? null : `CRM-${String(index + 1).padStart(7, '0')}`,
      created_at: createdAt,
      updated_at: random.chance(0.2) ? formatTimestamp(Math.min(createdMs + random.int(1, 400) * DAY_MS, dayStartMs(ANCHOR_DAY))) : createdAt,
      score: random.chance(0.35) ? 0 : Math.floor(random.next() ** 2 * 5000),
      posts: random.chance(0.5) ? 0 : random.int(1, 40),
      comments: random.chance(0.4) ? 0 : random.int(1, 120),
      replies: random.chance(0.5) ? 0 : random.int(1, 80),
    };
    this.students.push(student);
    this.addSubscriptions(student, index, Math.floor(createdMs / DAY_MS));
  }

  private email(firstName: string, lastName: string | null): string {
    const random = this.random;
    const first = this.slug(firstName);
    const last = lastName === null ? 'aluno' : this.slug(lastName.split(' ').pop() ?? lastName);
    const patterns = [`${first}.${last}`, `${first}${last}${random.int(1, 99)}`, `${first}_${last}`, `${first.charAt(0)}${last}${random.int(1970, 2010)}`];
    let local = random.pick(patterns);
    if (random.chance(0.06)) local += `+${random.pick(EMAIL_TAGS)}`;
    const domain = random.pick(EMAIL_DOMAINS);
    const wanted = `${local}@${domain}`;
    let email = wanted;
    if (this.emails.has(wanted)) {
      let suffix = this.emailSuffixes.get(wanted) ?? 2;
      // The number goes before a +tag: maria.souza2+cursos@…
      do email = `${local.replace(/\+|$/, `${suffix++}$&`)}@${domain}`;
      while (this.emails.has(email));
      this.emailSuffixes.set(wanted, suffix);
    }
    this.emails.add(email);
    // A few people type their address with capitals; lookups must ignore case.
    return flat(random.chance(0.02) ? email.replace(/^./, (c) => c.toUpperCase()).replace(/@./, (c) => c.toUpperCase()) : email);
  }

  private slug(name: string): string {
    let slug = this.slugs.get(name);
    if (slug === undefined) {
      slug = slugify(name);
      this.slugs.set(name, slug);
    }
    return slug;
  }

  private document(index: number): string | null {
    const random = this.random;
    if (index % 50 !== 4 && random.chance(0.04)) return null;
    for (;;) {
      // Foreign students register an RG with a slash, which must survive URL encoding.
      const document = flat(index % 50 === 4 ? `RG/${random.int(1000000, 9999999)}-${random.int(0, 9)}` : cpf(random));
      if (!this.documents.has(document)) {
        this.documents.add(document);
        return document;
      }
    }
  }

  private addSubscriptions(student: StudentRecord, index: number, createdDay: number): void {
    const random = this.random;
    const count = 1 + random.weighted([55, 30, 15]);
    const chosen = new Set<number>();
    while (chosen.size < count) chosen.add(random.weighted(this.productWeights));
    let position = 0;
    const enrolled = new Set<string>();
    for (const productIndex of chosen) {
      const product = this.products[productIndex];
      if (!product) continue;
      let statusIndex = random.weighted(STATUS_WEIGHTS);
      let access = random.chance(ACCESS_CHANCE[statusIndex] ?? 0);
      if (position === 0 && (index % KEPT_ACCESS_EVERY === 1 || index % KEPT_ACCESS_EVERY === 2)) {
        statusIndex = index % KEPT_ACCESS_EVERY === 1 ? STATUSES.indexOf('canceled') : STATUSES.indexOf('refunded');
        access = true;
      }
      const accession = random.int(Math.min(createdDay, ANCHOR_DAY - 1), ANCHOR_DAY - 1);
      this.subscriptions.push(this.subscription(student, product, STATUSES[statusIndex] ?? 'active', access, accession));
      for (const courseId of product.course_ids) {
        if (enrolled.has(courseId)) continue;
        enrolled.add(courseId);
        this.progress.push(this.courseProgress(student.id, courseId, accession));
      }
      position++;
    }
  }

  private subscription(student: StudentRecord, product: ProductRecord, status: SubscriptionStatus, access: boolean, accession: number): SubscriptionRecord {
    const random = this.random;
    const period = product.period;
    let paymentLast = accession;
    let cancel: number | null = null;
    if (status === 'refunded') cancel = accession + random.int(0, 7); // Brazilian 7-day right of withdrawal
    else if (status === 'chargeback') cancel = accession + random.int(10, 90);
    else if (status === 'canceled') cancel = random.int(accession, ANCHOR_DAY);
    const paidUntil = Math.min(cancel ?? ANCHOR_DAY, ANCHOR_DAY);
    if (period > 0 && status !== 'refunded') {
      const renewals = Math.floor((paidUntil - accession) / period);
      paymentLast = accession + (status === 'inactive' ? random.int(0, renewals) : renewals) * period;
    }
    const created = timestampOn(random, accession);
    return {
      id: random.uuid(),
      student_id: student.id,
      product_id: product.id,
      active: access ? 1 : 0,
      status,
      payment_last_date: formatDay(paymentLast),
      accession_date: formatDay(accession),
      expiration_date: period > 0 ? formatDay(paymentLast + period) : null,
      cancel_date: cancel === null ? null : formatDay(Math.min(cancel, ANCHOR_DAY)),
      created_at: created,
      updated_at: cancel === null ? created : timestampOn(random, Math.min(cancel, ANCHOR_DAY)),
    };
  }

  private courseProgress(studentId: string, courseId: string, fromDay: number): ProgressRecord {
    const random = this.random;
    if (random.chance(0.12)) return { student_id: studentId, course_id: courseId, completion: 0, last_access_at: null, finished_at: null };
    const lessons = this.lessonCounts.get(courseId) ?? 1;
    const engagement = this.engagement.get(courseId) ?? 0.5;
    const fraction = random.chance(engagement * 0.3) ? 1 : Math.min(1, Math.max(0, engagement + (random.next() - 0.5) * 0.9));
    const done = Math.max(1, Math.round(fraction * lessons));
    const lastDay = random.int(fromDay, ANCHOR_DAY);
    const lastAccess = timestampOn(random, lastDay);
    return {
      student_id: studentId,
      course_id: courseId,
      completion: Math.round((done * 10000) / lessons),
      last_access_at: lastAccess,
      finished_at: done === lessons ? lastAccess : null,
    };
  }
}

/** A CPF with valid check digits, formatted `123.456.789-09`. */
function cpf(random: Random): string {
  const digits: number[] = [];
  for (let i = 0; i < 9; i++) digits.push(random.int(0, 9));
  for (let length = 9; length <= 10; length++) {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += (digits[i] ?? 0) * (length + 1 - i);
    const rest = sum % 11;
    digits.push(rest < 2 ? 0 : 11 - rest);
  }
  const text = digits.join('');
  return `${text.slice(0, 3)}.${text.slice(3, 6)}.${text.slice(6, 9)}-${text.slice(9)}`;
}
