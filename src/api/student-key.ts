/** STUDENT arguments (contract §5): `@` → e-mail, `doc:` → document, `ref:` → reference, else id. */
import { UsageError } from '../errors.js';

export type StudentKey =
  | { kind: 'email'; value: string }
  | { kind: 'document'; value: string }
  | { kind: 'reference'; value: string }
  | { kind: 'id'; value: string };

export function parseStudentKey(input: string): StudentKey {
  const raw = input.trim();
  const key: StudentKey = raw.startsWith('doc:') ? { kind: 'document', value: raw.slice(4) }
    : raw.startsWith('ref:') ? { kind: 'reference', value: raw.slice(4) }
      : raw.includes('@') ? { kind: 'email', value: raw }
        : { kind: 'id', value: raw };
  if (key.value === '') {
    throw new UsageError(`empty student ${key.kind} in ${JSON.stringify(input)}; give an id, an e-mail, doc:DOCUMENT or ref:REFERENCE`);
  }
  return key;
}

export function describeKey(key: StudentKey): string {
  return key.kind === 'id' ? `student ${key.value}` : `student with ${key.kind === 'email' ? 'e-mail' : key.kind} ${key.value}`;
}
