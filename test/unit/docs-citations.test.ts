/**
 * Citations of the documents in the code stay true: every "contract §N" and
 * "api-spec §N" in src/, test/, scripts/ and bin/ names a numbered section of
 * docs/contract.md or docs/api-spec.md, and every section quoted from a
 * markdown file ("Shell completion" in docs/completion.md) is a heading of it;
 * and the links between README.md, CONTRIBUTING.md and docs/*.md reach their files and headings.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SELF = relative(ROOT, fileURLToPath(import.meta.url)).replace(/\\/g, '/');

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return files(path);
    return /\.(ts|mts|mjs|cjs|js|sh|md)$/.test(entry.name) && path !== SELF ? [path] : [];
  });
}

const sources = ['src', 'test', 'scripts', 'bin'].flatMap(files).map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));

const headings = (file: string) => [...readFileSync(join(ROOT, file), 'utf8').matchAll(/^#{1,4} (.+)$/gm)].map((match) => match[1]!.trim());

/** The numbers of a document's numbered headings: `## 4. Exit codes` → 4, `### 4.1 Students` → 4.1. */
const sectionNumbers = (file: string) => new Set(headings(file).flatMap((heading) => /^(\d+(?:\.\d+)*)\.?\s/.exec(heading)?.[1] ?? []));

const DOCUMENTS = { contract: 'docs/contract.md', 'api-spec': 'docs/api-spec.md' } as const;

/** `contract §5`, `api-spec §4.2–§4.4`, `Contract §1`: the document and each section it names. */
function sectionCitations(text: string): Array<{ document: keyof typeof DOCUMENTS; section: string }> {
  return [...text.matchAll(/\b(contract|api-spec) ((?:§\d+(?:\.\d+)*(?:\s*[–,-]\s*(?=§))?)+)/gi)].flatMap((match) => {
    const document = match[1]!.toLowerCase() as keyof typeof DOCUMENTS;
    return [...match[2]!.matchAll(/§(\d+(?:\.\d+)*)/g)].map((section) => ({ document, section: section[1]! }));
  });
}

/** `"Heading" in docs/x.md`, `docs/x.md "Heading"`, `src/sandbox/README.md, "Heading"`: the file and the heading quoted. */
function headingCitations(text: string): Array<{ file: string; heading: string }> {
  const after = [...text.matchAll(/"([^"\n]{2,80})" in (?:the )?((?:docs|src)\/[\w/.-]+\.md|README(?:\.md)?)\b/g)]
    .map((match) => ({ heading: match[1]!, file: match[2]! }));
  const before = [...text.matchAll(/\b((?:docs|src)\/[\w/.-]+\.md|README(?:\.md)?),? "([^"\n]{2,80})"/g)]
    .map((match) => ({ file: match[1]!, heading: match[2]! }));
  return [...after, ...before].map(({ file, heading }) => ({ file: file.startsWith('README') ? 'README.md' : file, heading }));
}

const plain = (heading: string) => heading.replace(/[`*]/g, '').toLowerCase();

describe('citations of the documents', () => {
  it('finds the kinds of citation it checks (a pattern that matched nothing would check nothing)', () => {
    expect(sectionCitations('(contract §5, bulk forms) and api-spec §4.2–§4.4')).toEqual([
      { document: 'contract', section: '5' }, { document: 'api-spec', section: '4.2' }, { document: 'api-spec', section: '4.4' },
    ]);
    expect(headingCitations('see "Shell completion" in docs/completion.md; (src/sandbox/README.md, "The laravel flavor")')).toEqual([
      { file: 'docs/completion.md', heading: 'Shell completion' }, { file: 'src/sandbox/README.md', heading: 'The laravel flavor' },
    ]);
    expect(sources.flatMap(({ text }) => sectionCitations(text)).length).toBeGreaterThan(40);
  });

  it('every "contract §N" and "api-spec §N" names a section of docs/contract.md or docs/api-spec.md', () => {
    const numbers = { contract: sectionNumbers(DOCUMENTS.contract), 'api-spec': sectionNumbers(DOCUMENTS['api-spec']) };
    const missing = sources.flatMap(({ path, text }) => sectionCitations(text)
      .filter(({ document, section }) => !numbers[document].has(section))
      .map(({ document, section }) => `${path}: ${document} §${section}`));
    expect(missing).toEqual([]);
  });

  it('every section quoted from a markdown file is a heading of that file', () => {
    const missing = sources.flatMap(({ path, text }) => headingCitations(text)
      .filter(({ file, heading }) => !existsSync(join(ROOT, file)) || !headings(file).some((h) => plain(h).startsWith(plain(heading))))
      .map(({ file, heading }) => `${path}: "${heading}" in ${file}`));
    expect(missing).toEqual([]);
  });

  it('every docs/*.md the code names exists', () => {
    const missing = sources.flatMap(({ path, text }) => [...text.matchAll(/\bdocs\/[\w-]+\.md\b/g)]
      .filter((match) => !existsSync(join(ROOT, match[0]))).map((match) => `${path}: ${match[0]}`));
    expect(missing).toEqual([]);
  });

  it('nothing cites the documents where they were before the repository held them', () => {
    const outside = sources.filter(({ text }) => /\.\.\/shared\/[\w/.-]+\.md|\/work\/shared\//.test(text)).map(({ path }) => path);
    expect(outside).toEqual([]);
  });
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) => heading.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');

describe('links between the documents', () => {
  it('every relative link of README.md, CONTRIBUTING.md and docs/*.md reaches a file, and its #anchor a heading there', () => {
    const pages = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
    const broken = pages.flatMap((page) => [...readFileSync(join(ROOT, page), 'utf8').matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => match[1]!)
      .filter((target) => !/^[a-z]+:/.test(target))
      .filter((target) => {
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const file = path === '' ? page : join(dirname(page), path).replace(/\\/g, '/');
        if (!existsSync(join(ROOT, file))) return true;
        return anchor !== undefined && !headings(file).map(slug).includes(anchor);
      })
      .map((target) => `${page}: ${target}`));
    expect(broken).toEqual([]);
  });
});
