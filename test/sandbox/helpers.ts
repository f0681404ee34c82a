import { request } from 'undici';
import { afterEach, beforeEach } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';

export interface Reply<T> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
}

export interface CallOptions {
  method?: string;
  /** JSON-encoded unless already a string. */
  body?: unknown;
  /** Bearer token; null sends no Authorization header. Defaults to the sandbox's API token. */
  token?: string | null;
  headers?: Record<string, string>;
}

/** One real HTTP exchange with the sandbox; the body parsed as JSON (undefined when empty). */
export async function call<T = unknown>(sandbox: Sandbox, path: string, options: CallOptions = {}): Promise<Reply<T>> {
  const token = options.token === undefined ? sandbox.apiToken : options.token;
  const headers: Record<string, string> = { ...options.headers };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  const response = await request(path.startsWith('http') ? path : sandbox.url + path, { method: (options.method ?? 'GET') as 'GET', headers, body });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, body: (text === '' ? undefined : JSON.parse(text)) as T };
}

/**
 * A freshly seeded sandbox for each test of the enclosing describe block (or
 * file), closed after it: no test sees another's writes, so the tests pass in
 * any order (`vitest run --sequence.shuffle`). Seeding takes milliseconds.
 */
export function useSandbox(options: SandboxOptions = {}): () => Sandbox {
  let sandbox: Sandbox | undefined;
  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0, ...options });
  });
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });
  return () => {
    if (!sandbox) throw new Error('sandbox not started');
    return sandbox;
  };
}

/** Every record of a paginated list, following links.next. */
export async function fetchAll<T>(sandbox: Sandbox, path: string): Promise<T[]> {
  const records: T[] = [];
  let next: string | null = path;
  while (next !== null) {
    const reply: Reply<Page<T>> = await call<Page<T>>(sandbox, next);
    if (reply.status !== 200) throw new Error(`GET ${next} answered ${reply.status}`);
    records.push(...reply.body.data);
    next = reply.body.links.next;
  }
  return records;
}

export interface Page<T> {
  data: T[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: {
    current_page: number; from: number | null; last_page: number; links: PageLink[]; path: string; per_page: number; to: number | null; total: number;
  };
}

/** An entry of `meta.links` (LengthAwarePaginator::linkCollection). */
export interface PageLink {
  url: string | null;
  label: string;
  active: boolean;
}

export interface ErrorBody {
  message: string;
  errors?: Record<string, string[]>;
  exception?: string;
}

export interface ProductSummary {
  id: string;
  title: string;
  description: string;
  created_at: string;
  updated_at: string;
}

export interface SubscriptionJson {
  id: string;
  active: number;
  status: string;
  product_id: string;
  payment_last_date: string | null;
  accession_date: string;
  expiration_date: string | null;
  cancel_date: string | null;
  product: ProductSummary;
  student?: { id: string; first_name: string; last_name: string | null; full_name: string; email: string };
  created_at: string;
  updated_at: string;
}

export interface StudentJson {
  id: string;
  first_name: string;
  last_name: string | null;
  full_name: string;
  email: string;
  photo_url: string | null;
  phone: string | null;
  genre: string | null;
  birth: string | null;
  document: string | null;
  reference_id: string | null;
  created_at: string;
  updated_at: string;
  subscriptions?: SubscriptionJson[];
}

export interface Data<T> {
  data: T;
}
