import { checkForUpdate, latestOf, PACKAGE_NAME } from '../config/update-notice.js';

/**
 * The update check (config/update-notice.ts) as bin/members.js runs it with
 * `__update-check`: detached from this run, which exits as soon as its work is
 * done (unref'd, its output nowhere, in a session of its own that a closed
 * terminal does not stop), as update-notifier starts its check.
 */
export async function startUpdateCheck(): Promise<void> {
  const { spawn } = await import('node:child_process');
  try {
    spawn(process.execPath, [process.argv[1]!, '__update-check'], { detached: true, stdio: 'ignore', windowsHide: true }).unref();
  } catch {
    // No process to spare: the next run tries again.
  }
}

/** What `members __update-check` does, in the process startUpdateCheck started: within UPDATE_CHECK_BUDGET_MS. */
export async function checkForUpdates(): Promise<void> {
  const { fetchRegistryDocument } = await import('../api/registry.js');
  await checkForUpdate(process.env, async (url) =>
    latestOf(await fetchRegistryDocument(url, { env: process.env, timeoutMs: UPDATE_CHECK_BUDGET_MS, userAgent: `${PACKAGE_NAME}/${__MEMBERS_VERSION__}` })));
}

/** A registry that answers slower than this is asked again the next day. */
const UPDATE_CHECK_BUDGET_MS = 5000;
