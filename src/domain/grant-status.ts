/**
 * What a grant does to a subscription's status (api-spec §3): the API takes
 * no status on a grant, so a subscription granted again — a renewal, an
 * extension, a transfer — gets the server's default whatever it had. A
 * change that would reset a status is never made silently (issue 30).
 */

/** The status a grant leaves: the sandbox's, and, as far as the API shows, the platform's. */
export const GRANT_STATUS = 'active';

/** Whether granting again would change this status (an unknown status changes nothing we can tell). */
export const resetsStatus = (status: string | null | undefined): status is string =>
  typeof status === 'string' && status !== '' && status.toLowerCase() !== GRANT_STATUS;

/** `status canceled becomes active (the server's default for a grant)` */
export const statusResetNote = (status: string) => `status ${status} becomes ${GRANT_STATUS} (the server's default for a grant)`;
