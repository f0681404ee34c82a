/**
 * Contract §1.1's order for choosing a profile and a base URL: flag >
 * environment > profile > default; an empty value counts as unset. Imports
 * nothing, so the completion helpers (src/completion/complete.ts) follow the same rule
 * as a run without loading the rest of the config layer.
 */
export type Source = 'flag' | 'env' | 'profile' | 'default';

export const DEFAULT_PROFILE = 'default';

/** The first candidate with a value; an empty string counts as unset. */
export function first(...candidates: Array<[Source, string | undefined]>): { value: string; source: Source } | undefined {
  for (const [source, value] of candidates) if (value) return { value, source };
  return undefined;
}

/** The profile named by `--profile` or MEMBERS_PROFILE (an empty value names none), if any. */
export function namedProfile(flags: { profile?: string }, env: Record<string, string | undefined>): { value: string; source: Source } | undefined {
  return first(['flag', flags.profile], ['env', env.MEMBERS_PROFILE]);
}

/** The profile a run uses: the one named, else the active one (read only then), else "default". */
export function chosenProfile(
  flags: { profile?: string }, env: Record<string, string | undefined>, active: () => string | undefined,
): { value: string; source: Source } {
  return namedProfile(flags, env) ?? first(['profile', active()]) ?? { value: DEFAULT_PROFILE, source: 'default' };
}

/** The base URL given by `--base-url` or MEMBERS_BASE_URL (an empty value gives none), if any. */
export function givenBaseUrl(flags: { baseUrl?: string }, env: Record<string, string | undefined>): { value: string; source: Source } | undefined {
  return first(['flag', flags.baseUrl], ['env', env.MEMBERS_BASE_URL]);
}
