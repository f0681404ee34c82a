/**
 * Issue 30's end-to-end tests run every flow against the default sandbox and
 * its Laravel flavour (dates as Tokyo midnights, integer subscription ids),
 * both started with the same seed, so that the default one's records tell
 * what every flavour holds before a test changes it.
 */
import { useSandboxProcess, type SandboxProcess } from './harness.js';

export const DESK_FLAVORS = [['default', []], ['laravel', ['--flavor', 'laravel']]] as const;
export const DESK_FLAVOR_NAMES = DESK_FLAVORS.map(([name]) => name);
export type DeskFlavor = (typeof DESK_FLAVORS)[number][0];

/**
 * One flavour's sandbox of `seed`, for the tests of the block that calls this
 * (useSandboxProcess; `each`: started anew for every test, with a config dir
 * of its own, so that each test starts from the seeded records and an empty
 * audit log whatever ran before it).
 */
export function deskSandbox(flavor: DeskFlavor, seed: readonly string[], options: { each?: boolean } = {}): SandboxProcess {
  const [, args] = DESK_FLAVORS.find(([name]) => name === flavor)!;
  return useSandboxProcess([...seed, ...args], options);
}

/** Both sandboxes, started before the file's tests and stopped after (useSandboxProcess). */
export function deskSandboxes(seed: readonly string[]): Record<DeskFlavor, SandboxProcess> {
  return Object.fromEntries(DESK_FLAVOR_NAMES.map((name) => [name, deskSandbox(name, seed)])) as Record<DeskFlavor, SandboxProcess>;
}

interface Held { product_id: string; active: number; accession_date: string; expiration_date: string | null }

/** The subscriptions with access. */
export const withAccess = <S extends Held>(subscriptions: readonly S[]): S[] => subscriptions.filter((sub) => sub.active === 1);

/** Products and their dates, in product order: what a transfer keeps. */
export const datesOf = (subscriptions: readonly Held[]) => subscriptions
  .map(({ product_id, accession_date, expiration_date }) => ({ product_id, accession_date, expiration_date }))
  .sort((a, b) => a.product_id.localeCompare(b.product_id));
