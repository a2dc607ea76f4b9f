import fs from 'node:fs';
import path from 'node:path';

/**
 * Relative links and anchors of Markdown files, checked the way GitHub renders them: a link's file
 * must exist, and its `#fragment` must be the slug of a heading in that file (or in the linking
 * file, for a bare `#fragment`). Fenced code and inline code are not Markdown, so links there are
 * not links.
 */

/** Markdown's lines with fenced code blocks blanked (their text is not Markdown); line numbers kept. */
export function proseLines(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const opener = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (opener && opener[1][0] === fence[0] && opener[1].length >= fence.length) fence = undefined;
      lines.push('');
    } else if (opener) {
      fence = opener[1];
      lines.push('');
    } else {
      lines.push(line);
    }
  }
  return lines;
}

/** GitHub's heading slug (as github-slugger): lower case, punctuation dropped, each space a hyphen. */
export function githubSlug(headingText: string): string {
  const text = headingText
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link shows its text
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|\*)(?=\S)([^]*?\S)\1/g, '$2') // emphasis markers are not text
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors of a file's headings, with GitHub's `-1`, `-2` ... for repeated slugs. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const m = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const slug = githubSlug(m[1]);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

export interface MarkdownLink {
  line: number;
  target: string;
}

/** Inline links and images `[text](target)` outside code; absolute URLs and mailto: excluded. */
export function relativeLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  proseLines(markdown).forEach((line, i) => {
    const prose = line.replace(/`+[^`]*`+/g, '');
    for (const m of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = m[1];
      if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      links.push({ line: i + 1, target });
    }
  });
  return links;
}

/** Every relative link of `file` that does not resolve, as `file:line target (why)`. */
export function brokenLinks(file: string, read: (p: string) => string | undefined = readIfFile): string[] {
  const text = read(file);
  if (text === undefined) return [`${file} does not exist`];
  const broken: string[] = [];
  for (const { line, target } of relativeLinks(text)) {
    const [pathPart, fragment] = target.split('#', 2);
    const targetFile = pathPart === '' ? file : path.resolve(path.dirname(file), decodeURI(pathPart));
    const where = `${path.basename(file)}:${line} ${target}`;
    const targetText = pathPart === '' ? text : read(targetFile);
    if (targetText === undefined && !isDirectory(targetFile)) {
      broken.push(`${where} (no such file)`);
    } else if (fragment !== undefined && fragment !== '') {
      if (targetText === undefined || !headingAnchors(targetText).has(decodeURIComponent(fragment))) {
        broken.push(`${where} (no heading with that anchor)`);
      }
    }
  }
  return broken;
}

function readIfFile(p: string): string | undefined {
  try {
    return fs.statSync(p).isFile() ? fs.readFileSync(p, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
