/** Replaces every secret, raw or percent-encoded, with `***` (contract §1.5). */
export function redactor(secrets: Array<string | undefined>): (text: string) => string {
  const needles = [...new Set(
    secrets.filter((s): s is string => typeof s === 'string' && s.length > 0)
      .flatMap((s) => [s, encodeURIComponent(s)]),
  )].sort((a, b) => b.length - a.length);
  if (needles.length === 0) return (text) => text;
  return (text) => needles.reduce((out, needle) => out.split(needle).join('***'), text);
}
