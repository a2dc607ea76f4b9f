/**
 * Which jest projects (jest.config.js) a `npm test` command line will run, decided before jest
 * starts so that scripts/run-tests.ts provisions only what they need: `--selectProjects unit`
 * or `test/unit` provisions no server. The command line is parsed by jest's own parser; path
 * patterns are applied as jest applies them (case-insensitive regular expressions on the test
 * file's path). When unsure (another config, unknown projects), every project counts.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';

export interface TestProject {
  displayName: string;
  testMatch: string[];
  globalSetup?: string;
}

/** The part of jest's parsed argv that selects tests by file or project. */
export interface SelectionArgv {
  _: Array<string | number>;
  testPathPatterns?: string[];
  selectProjects?: string[];
  ignoreProjects?: string[];
  config?: string;
  projects?: string[];
}

/** Every `*.test.ts` under `test/`, relative to the root, with `/` separators. */
export function testFiles(rootDir: string): string[] {
  return readdirSync(path.join(rootDir, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `test/${f.split(path.sep).join('/')}`);
}

/** A testMatch glob (`<rootDir>`, `**` and `*` only, which is all jest.config.js uses) as a regular expression on a relative path. */
function globRegex(glob: string): RegExp {
  const body = glob
    .replace(/^<rootDir>\//, '')
    .split(/(\*\*\/|\*)/)
    .map((part) => (part === '**/' ? '(?:.*/)?' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`);
}

/** The projects whose testMatch takes this file (exactly one, for a well-formed config). */
export function projectsOf(file: string, projects: readonly TestProject[]): TestProject[] {
  return projects.filter((p) => p.testMatch.some((g) => globRegex(g).test(file)));
}

/** As jest's TestPathPatterns: a leading `./` anchors at the root; matched on the relative and the absolute path. */
function matchesPattern(file: string, rootDir: string, pattern: string): boolean {
  const regex = new RegExp(pattern.replace(/^\.\//, '^'), 'i');
  return regex.test(file) || regex.test(path.join(rootDir, file));
}

export function projectsToRun(argv: SelectionArgv, projects: readonly TestProject[], rootDir: string, files: readonly string[]): TestProject[] {
  if (argv.config || argv.projects?.length) return [...projects];
  let chosen = projects.filter((p) => !argv.selectProjects || argv.selectProjects.includes(p.displayName));
  chosen = chosen.filter((p) => !argv.ignoreProjects?.includes(p.displayName));
  const patterns = [...argv._.map(String), ...(argv.testPathPatterns ?? [])];
  if (patterns.length === 0) return chosen;
  try {
    const selected = files.filter((f) => patterns.some((p) => matchesPattern(f, rootDir, p)));
    return chosen.filter((p) => selected.some((f) => projectsOf(f, [p]).length > 0));
  } catch {
    // An invalid pattern: jest then runs every test (and says so).
    return chosen;
  }
}
