/**
 * The tools' work against exact MockAgent interceptors: a change is sent
 * only after the person's confirmation, recorded with via mcp, the client
 * and the reason they gave; declined, nothing is sent. Unused interceptors
 * fail the test, and the MockAgent refuses any request not intercepted.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mcpSettings, toolsFor } from '../../../src/commands/mcp/actions.js';
import { NotConfirmedError } from '../../../src/commands/mcp/confirm.js';
import type { Confirmation, Tool, ToolContext } from '../../../src/commands/mcp/tool.js';
import type { Session } from '../../../src/session/session.js';
import { fakeIo } from '../../helpers/fake-io.js';
import { mockApi } from '../../helpers/mock-api.js';

const { api, pool } = mockApi();
const SETTINGS = mcpSettings({ maxRows: '50', allowWrites: true });
const ALL_TOOLS = await toolsFor(SETTINGS);
const named = (name: string) => ALL_TOOLS.find((tool) => tool.name === name) as Tool;

const MARIA = { id: 's1', first_name: 'Maria', last_name: 'Souza', email: 'maria@example.com' };
const page = (data: unknown[]) => ({ data, meta: { current_page: 1, last_page: 1, per_page: 100, total: data.length } });

function context(answer: (confirmation: Confirmation) => Promise<string>): { context: ToolContext; asked: Confirmation[]; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'members-mcp-'));
  const asked: Confirmation[] = [];
  const session = {
    io: fakeIo().io,
    settings: async () => ({ profile: 'desk', baseUrl: 'https://members.example.com' }),
    configDir: async () => dir,
  } as unknown as Session;
  const client = api();
  return {
    dir,
    asked,
    context: {
      session, settings: SETTINGS, api: async () => client, client: () => 'Claude Desktop 1.2.3',
      confirm: async (confirmation) => {
        asked.push(confirmation);
        return { reason: await answer(confirmation) };
      },
      showPerson: async () => undefined,
    },
  };
}

/** The product list, the student by e-mail, and the product not held. */
function readsBeforeGrant() {
  pool().intercept({ path: (path) => path.startsWith('/api/v1/products?'), method: 'GET' }).reply(200, page([{ id: 'p1', title: 'Yoga' }]));
  pool().intercept({ path: '/api/v1/students/email/maria%40example.com', method: 'GET' }).reply(200, { data: MARIA });
  pool().intercept({ path: '/api/v1/students/s1/products/p1', method: 'GET' }).reply(404, { message: 'Not found.' });
}

describe('the tool list', () => {
  it('holds no tool that changes anything without --allow-writes, and annotates every change', async () => {
    const readOnly = await toolsFor(mcpSettings({ maxRows: '50' }));
    expect(readOnly.every((tool) => tool.annotations.readOnlyHint)).toBe(true);
    const all = ALL_TOOLS;
    expect(all.filter((tool) => !tool.annotations.readOnlyHint).map((tool) => tool.name)).toEqual(['grant_product', 'revoke_product', 'set_score', 'add_score_points', 'magic_link', 'undo_change']);
    // No tool takes an argument that could stand for the person's answer, nor name a file (the person does, in the form).
    for (const tool of all) expect(Object.keys(tool.input.shape).filter((key) => /confirm|reason|yes|approve|file|path/i.test(key))).toEqual([]);
  });

  it('refuses a --max-rows that is not a positive count', () => {
    expect(() => mcpSettings({ maxRows: '0' })).toThrow(/--max-rows/);
    expect(() => mcpSettings({ maxRows: 'all' })).toThrow(/--max-rows/);
  });
});

describe('the read tools', () => {
  it('find_student takes exactly one of key and search, before any request', async () => {
    const { context: ctx } = context(async () => 'never asked');
    await expect(named('find_student').run({}, ctx)).rejects.toThrow('give exactly one of key (an exact lookup) and search (a fragment)');
    await expect(named('find_student').run({ key: 's1', search: 'maria' }, ctx)).rejects.toThrow(/exactly one/);
  });

  it('list_subscriptions with a filter reads every page, keeps --max-rows of the matches and counts them all', async () => {
    const subscription = (id: number, status: string) => ({ id, active: 1, status, product_id: 'p1', student: { id: `s${id}` } });
    const all = Array.from({ length: 7 }, (_, i) => subscription(i, i % 2 ? 'canceled' : 'active'));
    pool().intercept({ path: (path) => path.startsWith('/api/v1/subscriptions?'), method: 'GET' }).reply(200, page(all));
    const { context: ctx } = context(async () => 'never asked');
    const answer = await named('list_subscriptions').run({ status: ['active'] }, { ...ctx, settings: { ...SETTINGS, maxRows: 2 } });
    expect(answer.summary).toBe('4 subscriptions; the first 2 are shown (members mcp --max-rows 2)');
    expect(answer.data).toEqual({ total: 4, shown: 2, truncated: true, subscriptions: [all[0], all[2]] });
  });

  it('list_subscriptions refuses the filters subscriptions list refuses together', async () => {
    const { context: ctx } = context(async () => 'never asked');
    await expect(named('list_subscriptions').run({ expiring: '7d', expired: true }, ctx)).rejects.toThrow('--expiring and --expired cannot be combined');
  });
});

describe('grant_product', () => {
  it('asks the person with the product, the student and the dates by name, and sends nothing when they decline', async () => {
    readsBeforeGrant();
    const { context: ctx, asked } = context(async () => {
      throw new NotConfirmedError('the person declined the change in the confirmation form: nothing was changed');
    });
    await expect(named('grant_product').run({ student: 'maria@example.com', product: 'yoga', expiration: '2030-12-31' }, ctx)).rejects.toThrow(/declined/);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.message).toMatch(/^Grant product "Yoga" \(p1\) to Maria Souza <maria@example\.com> \(student id s1\): access from \d{4}-\d\d-\d\d, until 2030-12-31\. On profile "desk" \(members\.example\.com\)\.$/);
  });

  it('sends the grant once confirmed, and records it with via mcp, the client and the reason given', async () => {
    readsBeforeGrant();
    pool().intercept({ path: '/api/v1/students/s1/products', method: 'POST' })
      .reply(201, { data: { id: 9, active: 1, status: 'active', product_id: 'p1', accession_date: '2026-01-01', expiration_date: null, product: { id: 'p1', title: 'Yoga' } } });
    const { context: ctx, dir } = context(async () => 'ticket 4411');
    const answer = await named('grant_product').run({ student: 'maria@example.com', product: 'yoga' }, ctx);
    expect(answer.summary).toBe('✓ granted product "Yoga" (p1) to Maria Souza <maria@example.com>');
    expect(answer.data).toMatchObject({ result: 'granted', student_id: 's1', product_id: 'p1' });
    const records = readFileSync(join(dir, 'audit.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toEqual([expect.objectContaining({
      command: 'students grant', action: 'grant', result: 'granted', student_id: 's1', product_id: 'p1', reason: 'ticket 4411', via: 'mcp', client: 'Claude Desktop 1.2.3',
    })]);
    expect(answer.data.audit_id).toBe(records[0]?.id);
  });

  it('asks nothing and sends nothing when the student has access already', async () => {
    pool().intercept({ path: (path) => path.startsWith('/api/v1/products?'), method: 'GET' }).reply(200, page([{ id: 'p1', title: 'Yoga' }]));
    pool().intercept({ path: '/api/v1/students/email/maria%40example.com', method: 'GET' }).reply(200, { data: MARIA });
    pool().intercept({ path: '/api/v1/students/s1/products/p1', method: 'GET' }).reply(200, { data: { id: 9, active: 1, status: 'active', product_id: 'p1' } });
    const { context: ctx, asked } = context(async () => 'never asked');
    const answer = await named('grant_product').run({ student: 'maria@example.com', product: 'p1' }, ctx);
    expect(answer.data.result).toBe('skipped');
    expect(asked).toEqual([]);
  });
});

describe('grant_product over a subscription without access', () => {
  const lapsed = { id: 9, active: 0, status: 'canceled', product_id: 'p1', accession_date: '2024-01-01', expiration_date: '2024-06-30', product: { id: 'p1', title: 'Yoga' } };
  const reads = () => {
    pool().intercept({ path: (path) => path.startsWith('/api/v1/products?'), method: 'GET' }).reply(200, page([{ id: 'p1', title: 'Yoga' }]));
    pool().intercept({ path: '/api/v1/students/s1', method: 'GET' }).reply(200, { data: MARIA });
    pool().intercept({ path: '/api/v1/students/s1/products/p1', method: 'GET' }).reply(200, { data: lapsed });
  };

  it('is refused without renew, asking nothing and saying how to renew', async () => {
    reads();
    const { context: ctx, asked } = context(async () => 'never asked');
    await expect(named('grant_product').run({ student: 's1', product: 'p1' }, ctx)).rejects.toThrow(/its access is off .*nothing sent.*call grant_product again with renew: true/);
    expect(asked).toEqual([]);
  });

  it('with renew, asks a question that names the renewal, the status it changes and the dates it keeps; declined, nothing is sent', async () => {
    reads();
    const { context: ctx, asked } = context(async () => {
      throw new NotConfirmedError('declined');
    });
    await expect(named('grant_product').run({ student: 's1', product: 'p1', renew: true, expiration: '2027-12-31' }, ctx)).rejects.toThrow('declined');
    expect(asked.map((question) => question.message)).toEqual([
      'Renew product "Yoga" (p1) for Maria Souza <maria@example.com> (student id s1): its access is off (status canceled, expiration 2024-06-30), '
        + "and status canceled becomes active (the server's default for a grant). It is revoked and granted again, access from 2024-01-01, until 2027-12-31. "
        + 'On profile "desk" (members.example.com).',
    ]);
  });
});

describe('revoke_product', () => {
  it('names the subscription it ends in the question, and sends nothing when declined', async () => {
    pool().intercept({ path: (path) => path.startsWith('/api/v1/products?'), method: 'GET' }).reply(200, page([{ id: 'p1', title: 'Yoga' }]));
    pool().intercept({ path: '/api/v1/students/s1', method: 'GET' }).reply(200, { data: MARIA });
    pool().intercept({ path: '/api/v1/students/s1/products/p1', method: 'GET' })
      .reply(200, { data: { id: 9, active: 1, status: 'active', product_id: 'p1', accession_date: '2024-01-01 10:00:00', expiration_date: '2026-12-31', product: { id: 'p1', title: 'Yoga' } } });
    const { context: ctx, asked } = context(async () => {
      throw new NotConfirmedError('declined');
    });
    await expect(named('revoke_product').run({ student: 's1', product: 'Yoga' }, ctx)).rejects.toThrow('declined');
    expect(asked[0]?.message).toBe('Revoke product "Yoga" (p1) from Maria Souza <maria@example.com> (student id s1): the subscription (active, since 2024-01-01, until 2026-12-31) '
      + 'and its access end now. On profile "desk" (members.example.com).');
  });
});
