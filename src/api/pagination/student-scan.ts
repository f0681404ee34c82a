/**
 * Finds a student by reading the whole student list, for when the server
 * cannot route the lookup: Laravel decodes `%2F` before routing, so a CNPJ
 * (`12.345.678/0001-90`) or `RG/123` in `/students/document/{document}` is a
 * route miss. The list is read once per run (per Api) and indexed, so a bulk
 * run with many such rows pays for one read.
 */
import type { Api } from '../client.js';
import { walkList } from './pages.js';
import { Student } from '../endpoints/schemas.js';
import type { StudentKey } from '../endpoints/student-key.js';

type Index = ReadonlyMap<string, string>;

const indexes = new WeakMap<Api, Promise<Index>>();

const entry = (kind: StudentKey['kind'], value: string) => `${kind}:${kind === 'email' ? value.toLowerCase() : value}`;

/** The id of the student with that key, or undefined when the list has none. */
export async function scanForStudent(api: Api, key: StudentKey): Promise<string | undefined> {
  let index = indexes.get(api);
  if (!index) {
    api.notice(`The server cannot look up ${key.kind} ${JSON.stringify(key.value)} by its path (a "/" in a path segment is a route miss); reading the student list once to find it…`);
    index = buildIndex(api);
    indexes.set(api, index);
    // A failed read may succeed later in the run: do not keep it.
    index.catch(() => indexes.delete(api));
  }
  return (await index).get(entry(key.kind, key.value));
}

async function buildIndex(api: Api): Promise<Index> {
  const index = new Map<string, string>();
  for await (const student of walkList(api, Student, '/api/v1/students', { per_page: 100 }, { all: true, concurrency: 8 })) {
    index.set(entry('id', student.id), student.id);
    if (student.email) index.set(entry('email', student.email), student.id);
    if (student.document) index.set(entry('document', student.document), student.id);
    if (student.reference_id) index.set(entry('reference', student.reference_id), student.id);
  }
  return index;
}
