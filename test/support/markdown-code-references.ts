import { proseLines } from './markdown-links';

/**
 * What a document names in inline code: file paths (`src/services/delivery-outbox.ts`,
 * `dashboard/templates/`, `config.ts`) and environment variables (`MAX_BACKLOG_S`,
 * `BENCH_TOPOLOGY=separate`). A doc that names a file or a variable the code no longer has misleads
 * its reader, so each must still name something real.
 */

export interface CodeReference {
  line: number;
  name: string;
}

/** The whitespace-separated words of every inline code span outside fenced code. */
function codeWords(markdown: string): CodeReference[] {
  const words: CodeReference[] = [];
  proseLines(markdown).forEach((line, i) => {
    for (const span of line.matchAll(/(`+)([^`]+?)\1/g)) {
      for (const word of span[2].trim().split(/\s+/)) words.push({ line: i + 1, name: word });
    }
  });
  return words;
}

const FILE_EXTENSION = /\.(ts|js|go|py|json|ya?ml|md|toml|mod|sql|sh|html)$/;

/**
 * Words that look like a repository path: a name with a source or config file's extension, a
 * folder (`persistence/`), or a path under one of `topLevel` (`receivers/go`). Media types
 * (`application/json`), package names (`@temporalio/workflow`), URL paths (`/openapi.json`), URLs,
 * globs and placeholders are not.
 */
export function citedPaths(markdown: string, topLevel: ReadonlySet<string> = new Set()): CodeReference[] {
  return codeWords(markdown).filter(({ name }) => {
    if (!/^(\.{1,2}\/)*[\w-][\w.-]*(\/[\w.-]+)*\/?$/.test(name)) return false;
    const first = name.replace(/^(\.{1,2}\/)+/, '').split('/')[0];
    return FILE_EXTENSION.test(name) || name.endsWith('/') || name.startsWith('.') || (name.includes('/') && topLevel.has(first));
  });
}

/** Words that name an environment variable: UPPER_SNAKE with at least one `_`, alone or as `NAME=value`. */
export function citedEnvNames(markdown: string): CodeReference[] {
  return codeWords(markdown).flatMap(({ line, name }) => {
    const m = /^([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(=\S*)?$/.exec(name);
    return m ? [{ line, name: m[1] }] : [];
  });
}

/** The repository as the path check sees it: its files and folders, `/`-separated from the root. */
export interface RepoTree {
  /** Every file and folder path, relative to the root, without a trailing `/`. */
  paths: ReadonlySet<string>;
  /** Top-level folders git ignores (build and run outputs): a doc may name what is made there. */
  generated: readonly string[];
}

/**
 * The cited paths of `docPath` (relative to the root) that name nothing in the repository, as
 * `doc:line path`. A path resolves from the root, from the document's folder, or as the trailing
 * part of a repository path (`config.ts`, `dashboard/templates/`, said beside the folder they are
 * in); one that starts with `./` or `../` from the document's folder only, and is not checked when
 * it leaves the repository (a sibling checkout).
 */
export function missingPaths(docPath: string, markdown: string, repo: RepoTree): string[] {
  const docDir = docPath.includes('/') ? docPath.slice(0, docPath.lastIndexOf('/')) : '';
  const tails = [...repo.paths].map((p) => `/${p}`);
  const topLevel = new Set([...repo.paths].filter((p) => !p.includes('/')));
  return citedPaths(markdown, topLevel)
    .filter(({ name }) => {
      const wanted = name.replace(/\/$/, '');
      const fromDoc = normalise(docDir ? `${docDir}/${wanted}` : wanted);
      if (fromDoc === undefined) return false;
      if (repo.paths.has(fromDoc)) return false;
      if (wanted.startsWith('.')) return true; // `./x`, `../x`: from the document only
      const fromRoot = normalise(wanted) ?? wanted;
      if (repo.paths.has(fromRoot)) return false;
      if (repo.generated.some((g) => fromRoot === g || fromRoot.startsWith(`${g}/`))) return false;
      return !tails.some((t) => t.endsWith(`/${fromRoot}`));
    })
    .map(({ line, name }) => `${docPath}:${line} ${name}`);
}

/** `a/./b/../c` as `a/c`; undefined when it climbs above the root. */
function normalise(p: string): string | undefined {
  const parts: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part !== '..') parts.push(part);
    else if (parts.pop() === undefined) return undefined;
  }
  return parts.join('/');
}

/** The cited environment variables of a document that `known` does not know, as `doc:line NAME`. */
export function unknownEnvNames(docPath: string, markdown: string, known: (name: string) => boolean): string[] {
  return citedEnvNames(markdown)
    .filter(({ name }) => !known(name))
    .map(({ line, name }) => `${docPath}:${line} ${name}`);
}
