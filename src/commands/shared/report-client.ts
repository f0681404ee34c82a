/** The engaged-courses report's own client: shared by `members report engaged-courses` and the assistant's report tool. */
import type { Api } from '../../api/client.js';
import { MissingCredentialsError } from '../../lib/errors.js';
import type { Session } from '../../session/session.js';

/**
 * The report authenticates with two tokens in its path and no Authorization
 * header: a client for the base URL alone, which knows every token of the
 * profile so that logs and error messages redact them.
 */
export async function reportClient(session: Session): Promise<{ api: Api; developerToken: string; platformToken: string }> {
  const settings = await session.settingsToConnect('report');
  const { developerToken, platformToken } = settings;
  if (!developerToken || !platformToken) {
    const missing = [developerToken ? '' : 'developer token', platformToken ? '' : 'platform token'].filter(Boolean).join(' and ');
    throw new MissingCredentialsError(
      `no report ${missing} for profile "${settings.profile}": set MEMBERS_DEVELOPER_TOKEN and MEMBERS_PLATFORM_TOKEN, `
        + 'or store them with `members auth login` (it reads them from those variables or asks on a terminal)',
    );
  }
  // The report tokens may come from the config, as the bearer token does for every other command.
  await session.checkCredentials(settings, 'report');
  const api = await session.connect(settings.baseUrl, undefined, [developerToken, platformToken, settings.token]);
  return { api, developerToken, platformToken };
}
