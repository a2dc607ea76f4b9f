import fs from 'node:fs';
import path from 'node:path';
import { brokenLinks, githubSlug, headingAnchors, relativeLinks } from '../../support/markdown-links';

/** README.md is the front door and docs/ holds the rest: every link between them must lead somewhere. */
const ROOT = path.resolve(__dirname, '..', '..', '..');
const README = path.join(ROOT, 'README.md');
const DOCS = path.join(ROOT, 'docs');
const docFiles = () =>
  fs
    .readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join(DOCS, f));

describe('documentation links', () => {
  it('README.md is at most 250 lines', () => {
    const lines = fs.readFileSync(README, 'utf8').replace(/\n$/, '').split('\n').length;
    expect(lines).toBeLessThanOrEqual(250);
  });

  it('BENCHMARKS.md is at most 250 lines and opens with the current figures', () => {
    const text = fs.readFileSync(path.join(ROOT, 'BENCHMARKS.md'), 'utf8');
    expect(text.replace(/\n$/, '').split('\n').length).toBeLessThanOrEqual(250);
    expect(/^## (.*)$/m.exec(text)?.[1]).toBe('Current figures');
  });

  it('every relative link and anchor in README.md and docs/*.md resolves to a file and a heading', () => {
    const files = [README, ...docFiles()];
    expect(files.length).toBeGreaterThan(1);
    expect(files.flatMap((f) => brokenLinks(f))).toEqual([]);
  });

  it('README.md links every document in docs/', () => {
    const linked = new Set(
      relativeLinks(fs.readFileSync(README, 'utf8')).map((l) => path.resolve(ROOT, l.target.split('#')[0])),
    );
    expect(docFiles().filter((f) => !linked.has(f))).toEqual([]);
  });

  it('reports a link to a missing file, and an anchor that names no heading', () => {
    const files: Record<string, string> = {
      '/d/a.md': '# A\n\n## Where each rule lives\n\n[ok](b.md#b-title) [ok](#where-each-rule-lives) [gone](c.md) [bad](b.md#nope) [bad](#a-title)\n',
      '/d/b.md': '# B `title`\n',
    };
    expect(brokenLinks('/d/a.md', (p) => files[p])).toEqual([
      'a.md:5 c.md (no such file)',
      'a.md:5 b.md#nope (no heading with that anchor)',
      'a.md:5 #a-title (no heading with that anchor)',
    ]);
  });

  it('ignores links inside code, and absolute URLs', () => {
    const text = '```\n[x](missing.md)\n```\n`[y](missing.md)` [z](https://example.com/missing.md) <http://127.0.0.1:8233>\n';
    expect(relativeLinks(text)).toEqual([]);
  });

  it('slugs headings as GitHub does, repeated ones numbered', () => {
    expect(githubSlug('Keys, limits and errors')).toBe('keys-limits-and-errors');
    expect(githubSlug('The embedded store (FerretDB) and what it taught us')).toBe('the-embedded-store-ferretdb-and-what-it-taught-us');
    expect(githubSlug('Verifying `sha256=` signatures: **today**')).toBe('verifying-sha256-signatures-today');
    expect(githubSlug('Answer fast, deliver durably, lose nothing.')).toBe('answer-fast-deliver-durably-lose-nothing');
    expect(githubSlug('DATA_DIR and 1–2 ranges')).toBe('data_dir-and-12-ranges');
    expect([...headingAnchors('# Run it\n## Run it\n```\n# not a heading\n```\n')]).toEqual(['run-it', 'run-it-1']);
  });
});
