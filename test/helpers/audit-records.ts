/** Audit records of the changes undo reverses, shared by its unit and in-process tests. */
import type { AuditRecord } from '../../src/audit/log.js';

export const BASE = 'https://members.example.com';

export const SNAPSHOT = { id: 77, product_id: 'p1', accession_date: '2024-01-01', expiration_date: '2025-01-01', status: 'active', active: 1 };

export const rec = (id: string, fields: Partial<AuditRecord>): AuditRecord => ({
  id, time: '2025-03-01T10:00:00.000Z', user: 'ana', profile: 'default', base_url: BASE,
  command: 'students grant', action: 'grant', student: 'maria@example.com', student_id: 's1', product_id: 'p1', result: 'granted', ...fields,
});
export const GRANT = rec('g1', { after: SNAPSHOT });
export const REVOKE = rec('r1', { command: 'students revoke', action: 'revoke', result: 'revoked', before: SNAPSHOT });
export const DELETE = rec('d1', {
  command: 'students delete', action: 'delete', result: 'deleted', student: 's1', product_id: undefined,
  before: { id: 's1', first_name: 'Maria', last_name: 'Silva', email: 'maria@example.com', phone: null, birth: '1990-04-12 00:00:00', document: '123', reference_id: null },
});
