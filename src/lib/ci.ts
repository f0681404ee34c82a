/** Whether the run is in CI, as most tools read `CI` (ci-info, gh): set to anything but empty or `false`. */
export function inCi(env: Record<string, string | undefined>): boolean {
  return env.CI !== undefined && env.CI !== '' && env.CI !== 'false';
}
