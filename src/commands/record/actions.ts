/**
 * `members record use|status|push` (issue 36): where the profile in force
 * keeps its change record. A team record is checked (reached, its tables
 * created or migrated) before the profile is saved; its password goes to the
 * OS keychain as tokens do, or to the config file where none answers.
 */
import { randomBytes } from 'node:crypto';
import { recordSetting } from '../../config/record-setting.js';
import type { Profile } from '../../config/store.js';
import { CliError, ExitCode, UsageError } from '../../lib/errors.js';
import { readAll } from '../../lib/read-input.js';
import { plural } from '../../lib/values.js';
import type { Session } from '../../session/session.js';
import { RECORD_STATUS_VIEW, statusRecord } from './view.js';

export interface UseFlags {
  passwordStdin?: boolean;
  insecureStorage?: boolean;
}

/** The stored profile the record setting goes into: `members record use` changes a profile, never makes one. */
async function storedProfile(session: Session): Promise<{ name: string; profile: Profile }> {
  const settings = await session.settings();
  const profile = (await session.store('write')).get(settings.profile);
  if (!profile) throw new UsageError(`no stored profile "${settings.profile}" to keep the record setting in: run \`members auth login\` first`);
  return { name: settings.profile, profile };
}

/** The profile without any team record: its URL, and its password wherever it was. */
async function withoutTeamRecord(session: Session, profile: Profile): Promise<Profile> {
  const { record_url: _url, record_keychain: item, record_password: _password, ...rest } = profile;
  if (typeof item === 'string') {
    try {
      (await session.keychain()).delete(item);
    } catch {
      (await session.messages()).warn(`the team record's password could not be removed from the OS keychain (item "${item}"); delete it with the keychain's own tool`);
    }
  }
  return rest as Profile;
}

export async function useRecord(session: Session, target: string, flags: UseFlags): Promise<void> {
  const messages = await session.messages();
  const { name, profile } = await storedProfile(session);
  if (target.trim() === 'local') {
    (await session.store('write')).save(name, await withoutTeamRecord(session, profile));
    messages.notice(`✓ Profile "${name}" keeps its change record on this machine (the local audit log)`);
    return;
  }
  const { checkRecordUrl, openPostgresRecord, shownUrl } = await import('../../audit/postgres-record.js');
  const url = checkRecordUrl(target.trim());
  const password = decodeURIComponent(url.password) || await givenPassword(session, shownUrl(url.toString()), flags);
  url.password = '';
  const stored = url.toString();
  // Reached and migrated before anything is saved: a profile never points at a record that does not answer.
  const record = await openPostgresRecord(stored, { password });
  try {
    const status = await record.status();
    if (!status.answers) throw record.unavailable(new Error(status.problem ?? 'no answer'));
  } finally {
    await record.close();
  }
  const base = await withoutTeamRecord(session, profile);
  const where = password ? await placePassword(session, name, password, flags.insecureStorage === true) : {};
  (await session.store('write')).save(name, { ...base, record_url: stored, ...where } as Profile);
  const kept = 'record_keychain' in where ? ', its password in the OS keychain' : 'record_password' in where ? ', its password in the config file' : '';
  messages.notice(`✓ Profile "${name}" keeps its change record in the team record ${stored}${kept}; \`members record push\` copies this machine's history there`);
}

async function givenPassword(session: Session, shown: string, flags: UseFlags): Promise<string | undefined> {
  if (flags.passwordStdin) return (await readAll(session.io.stdin)).replace(/\r?\n$/, '') || undefined;
  if (session.io.env.PGPASSWORD) return undefined;
  return (await session.promptSecret(`Password for ${shown} (empty: none, or ~/.pgpass): `)) || undefined;
}

/** The password in a keychain item of its own, else (or with --insecure-storage) in the file, said so. */
async function placePassword(session: Session, profile: string, password: string, insecure: boolean): Promise<{ record_keychain?: string; record_password?: string }> {
  if (!insecure) {
    try {
      const keychain = await session.keychain();
      const account = `${profile}/record-${randomBytes(4).toString('hex')}`;
      keychain.set(account, password);
      return { record_keychain: account };
    } catch (error) {
      (await session.messages()).warn(`no OS keychain answered (${(error as Error).message}): the record's password is stored in plain text in the config file (mode 0600)`);
    }
  }
  return { record_password: password };
}

export async function recordStatus(session: Session): Promise<void> {
  const settings = await session.settings();
  const setting = recordSetting(session.io.env, settings.stored);
  const status = await (await session.changeRecord()).status();
  const source = setting.source === 'env' ? 'MEMBERS_RECORD_URL' : setting.source;
  const output = await session.output();
  await output.one(statusRecord(settings.profile, source, status), RECORD_STATUS_VIEW);
  await output.close();
  if (!status.answers) {
    throw new CliError(`${status.where} does not answer (${status.problem ?? 'no answer'}); no change is sent until it does. `
      + 'Check the server and the network, or go back to this machine\'s record for now with `members record use local`', ExitCode.recordUnavailable);
  }
}

export async function pushRecord(session: Session, flags: { dryRun?: boolean }): Promise<void> {
  const messages = await session.messages();
  const record = await session.changeRecord();
  if (record.home === 'local') throw new UsageError('this profile keeps its record on this machine already: `members record use postgres://USER@HOST:PORT/DB` first');
  const [dir, { readAllAudit }, { auditLogPath }, { LocalSnapshots, snapshotKey }] = await Promise.all([
    session.configDir(), import('../../audit/log.js'), import('../../config/paths.js'), import('../../audit/count-snapshots.js'),
  ]);
  const log = auditLogPath(dir);
  const local = await readAllAudit(dir, ({ line }) => messages.warn(`skipped line ${line} of ${log}: not a valid audit record`));
  // The subscriber counts of `products snapshot` go too (each once, as the changes).
  const counts = new LocalSnapshots(dir);
  const { snapshots, skipped } = await counts.read();
  if (skipped > 0) messages.warn(`skipped ${plural(skipped, 'line')} of ${counts.where}: not a valid snapshot`);
  if (flags.dryRun) {
    const there = new Set((await record.records()).map((change) => change.id));
    const missing = local.filter((change) => !there.has(change.id)).length;
    const kept = new Set((await record.snapshots.read()).snapshots.map(snapshotKey));
    const missingCounts = snapshots.filter((snapshot) => !kept.has(snapshotKey(snapshot))).length;
    messages.notice(`${plural(missing, 'change')} of ${plural(local.length, 'change')} in ${log} would be copied to ${record.name} (--dry-run: nothing copied)`);
    if (snapshots.length > 0) messages.notice(`${plural(missingCounts, 'product count')} of ${plural(snapshots.length, 'product count')} in ${counts.where} would be copied too`);
    return;
  }
  const added = await record.append(local);
  messages.notice(`✓ Copied ${plural(added, 'change')} of ${plural(local.length, 'change')} in ${log} to ${record.name}${added < local.length ? ` (${local.length - added} there already)` : ''}`);
  if (snapshots.length === 0) return;
  const addedCounts = await record.snapshots.keep(snapshots);
  messages.notice(`✓ Copied ${plural(addedCounts, 'product count')} of ${plural(snapshots.length, 'product count')} in ${counts.where}${addedCounts < snapshots.length ? ` (${snapshots.length - addedCounts} there already)` : ''}`);
}
