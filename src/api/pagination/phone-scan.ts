/**
 * A phone number as a STUDENT (issue 37, item 3): `+55 61 93986-2924`,
 * `(61) 93986-2924`, `61939862924` name the one student whose phone has
 * those national digits (lib/phone.ts). The API has no lookup by phone, so
 * the student list is read as `students search` reads it (100 a page, 4
 * pages at a time); several students with the number are exit 2 (listed),
 * none 4. A book reads the list once: a run passes one to all its lookups,
 * so a bulk file of phones pays for one read, not one per row.
 */
import type { Api } from '../client.js';
import { fetchPage } from './pages.js';
import { walkPages } from './paginate.js';
import { Student } from '../endpoints/schemas.js';
import { ExitCode, NotFoundError, UsageError } from '../../lib/errors.js';
import { nameAndEmail, personName, type Named } from '../../lib/people.js';
import { nationalPhone } from '../../lib/phone.js';

const PER_PAGE = 100;
const LIST = { method: 'GET', path: '/api/v1/students' } as const;

/** What a book keeps of a student (its id and how to name it), not the record: the whole list passes through it. */
export type PhoneHolder = { id: string } & Named;

interface Directory {
  byPhone: ReadonlyMap<string, PhoneHolder[]>;
  students: number;
  pages: number;
}

export interface FoundByPhone {
  student: PhoneHolder;
  /** Pages of the student list this find read (0: the book had read it already). */
  pages: number;
}

export class PhoneBook {
  private directory?: Promise<Directory>;
  private paid = false;

  constructor(private readonly api: Api) {}

  /** The one student with the phone `typed`: a NotFoundError (exit 4) for none, a UsageError (exit 2) listing them for several. */
  async find(typed: string): Promise<FoundByPhone> {
    const directory = await this.read();
    const pages = this.paid ? 0 : directory.pages;
    this.paid = true;
    const matches = directory.byPhone.get(nationalPhone(typed)) ?? [];
    if (matches.length === 1) return { student: matches[0] as PhoneHolder, pages };
    if (matches.length === 0) {
      throw new NotFoundError(
        `no student has the phone ${typed} (the whole student list was read: ${directory.students} students); search by a part of the name or e-mail: members students search TEXT`,
        ExitCode.notFound, LIST, 404,
      );
    }
    throw severalWithPhone(typed, matches);
  }

  private read(): Promise<Directory> {
    if (!this.directory) {
      this.directory = readDirectory(this.api);
      // A failed read may succeed on a later row: do not keep it.
      this.directory.catch(() => (this.directory = undefined));
    }
    return this.directory;
  }
}

/** Exit 2 for a phone several students share, listing the first 10 (id, name, e-mail) for the person to choose. */
export function severalWithPhone(typed: string, students: readonly PhoneHolder[]): UsageError {
  const listed = students.slice(0, 10).map((student) => `  ${student.id}  ${nameAndEmail(student)}`).join('\n');
  const more = students.length > 10 ? `\n  … and ${students.length - 10} more` : '';
  return new UsageError(`${students.length} students have the phone ${typed}; give one's e-mail or id:\n${listed}${more}`);
}

async function readDirectory(api: Api): Promise<Directory> {
  const byPhone = new Map<string, PhoneHolder[]>();
  let students = 0;
  // The pages asked, counted as they are (walkList's walk, with the count -v gives).
  let pages = 0;
  const query = { per_page: PER_PAGE };
  const page = (req: { path: string; query: typeof query & { page?: number } }) => {
    pages++;
    return fetchPage(api, Student, req);
  };
  const list = walkPages((number) => page({ path: LIST.path, query: { ...query, page: number } }), (link) => page({ path: link, query }), { all: true, concurrency: 4 });
  for await (const student of list) {
    students++;
    const phone = student.phone ? nationalPhone(student.phone) : '';
    if (phone.length < 10) continue;
    const holder: PhoneHolder = { id: student.id, full_name: personName(student), email: student.email };
    const same = byPhone.get(phone);
    if (same) same.push(holder);
    else byPhone.set(phone, [holder]);
  }
  return { byPhone, students, pages };
}
