import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../../src/config/config';
import { citedEnvNames, citedPaths, missingPaths, RepoTree, unknownEnvNames } from '../../support/markdown-code-references';

/** Every file and environment variable the docs name in inline code must exist in the code as it is. */
const ROOT = path.resolve(__dirname, '..', '..', '..');
const read = (relative: string) => fs.readFileSync(path.join(ROOT, relative), 'utf8');

/** The docs: the README, docs/, BENCHMARKS.md and the receivers' READMEs, relative to the root. */
function docs(): string[] {
  const receivers = fs
    .readdirSync(path.join(ROOT, 'receivers'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(ROOT, 'receivers', d.name, 'README.md')))
    .map((d) => `receivers/${d.name}/README.md`);
  const inDocs = fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
  return ['README.md', 'BENCHMARKS.md', ...inDocs, 'receivers/README.md', ...receivers];
}

/** The working tree without dot-folders, node_modules and the top-level folders git ignores. */
function repoTree(): RepoTree {
  const generated = read('.gitignore')
    .split('\n')
    .map((l) => /^\/?([\w.-]+)\/$/.exec(l.trim())?.[1])
    .filter((d): d is string => d !== undefined);
  const paths = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const relative = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.name.startsWith('.') || entry.name === 'node_modules' || (!dir && generated.includes(entry.name))) continue;
      paths.add(relative);
      if (entry.isDirectory()) walk(relative);
    }
  };
  walk('');
  return { paths, generated };
}

/** Variables read by code other than the platform's: each named for what reads it. */
const EXTERNAL_ENV: Array<[RegExp, string]> = [
  [/^NODE_EXTRA_CA_CERTS$/, "Node's own: extra CA certificates"],
  [/^OTEL_/, "OpenTelemetry's standard variables"],
  [/^PIP_/, "pip's own settings (a cold start's measurement)"],
  [/^TEMPORAL_AUTH_/, "the Temporal Web UI image's own sign-in settings"],
  [/^ALLOW_DUPLICATE$/, "Temporal's workflow-id reuse policy, a value rather than a variable"],
];

/** The names the configuration reads, seen by handing it an environment that records each read. */
function configNames(): Set<string> {
  const names = new Set<string>();
  const env = new Proxy({} as NodeJS.ProcessEnv, {
    get: (_target, name) => {
      if (typeof name === 'string') names.add(name);
      return undefined;
    },
  });
  loadConfig(env);
  return names;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => `${dir}/${f}`);
}

/** Names matched by `pattern`'s first group in the given files. */
function namesIn(files: string[], pattern: RegExp): Set<string> {
  return new Set(files.flatMap((f) => [...read(f).matchAll(pattern)].map((m) => m[1])));
}

function knownEnvName(): (name: string) => boolean {
  const known = new Set([
    ...configNames(),
    // Where the provisioned tools live: read by src/infra/tools.ts, before any configuration.
    ...namesIn(['src/infra/tools.ts'], /\benv\.([A-Z][A-Z0-9_]*)/g),
    // What the project sets for the embedded servers it starts (the FerretDB patches read them).
    ...namesIn(['src/infra/embedded-servers.ts'], /\benv\.([A-Z][A-Z0-9_]*) =/g),
    // The benchmarks' knobs (BENCHMARKS.md).
    ...namesIn(sourceFiles('bench'), /process\.env\.([A-Z][A-Z0-9_]*)/g),
    // The tests' knobs (docs/testing.md).
    ...namesIn(sourceFiles('test'), /process\.env\.([A-Z][A-Z0-9_]*)/g),
    // What docker-compose.yml asks of the shell that runs it.
    ...namesIn(['docker-compose.yml'], /\$\{([A-Z][A-Z0-9_]*)/g),
    // Constants of the code the docs quote (`MAX_JSON_DEPTH`, `DELIVERY_TASK_TIMEOUT_MS`).
    ...namesIn(['src', 'workflows', 'activities'].flatMap(sourceFiles), /\bconst ([A-Z][A-Z0-9_]*)\b/g),
  ]);
  return (name) => known.has(name) || EXTERNAL_ENV.some(([pattern]) => pattern.test(name));
}

describe('code the documentation names', () => {
  it('every file path the docs cite in inline code exists in the repository', () => {
    const repo = repoTree();
    expect(docs().flatMap((doc) => missingPaths(doc, read(doc), repo))).toEqual([]);
  });

  it('every environment variable the docs cite is read by the configuration, the tools, a benchmark, a test or compose, or is a known external one', () => {
    const known = knownEnvName();
    expect(docs().flatMap((doc) => unknownEnvNames(doc, read(doc), known))).toEqual([]);
  });

  it('every document the code and the deployment files name exists', () => {
    const named = repoTree().paths;
    const sources = [...named].filter((p) => /^(src|workflows|activities|bench|scripts|deploy|receivers)\/.*\.(ts|go|py|ya?ml|json)$/.test(p));
    const files = [...sources, 'docker-compose.yml', 'Dockerfile', 'package.json'];
    const missing = files.flatMap((f) => [...read(f).matchAll(/\b(docs\/[\w.-]+\.md|BENCHMARKS\.md)\b/g)].map((m) => m[1]).filter((d) => !named.has(d)).map((d) => `${f} ${d}`));
    expect(files.length).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });

  it('sees the variables the configuration reads', () => {
    expect([...configNames()]).toEqual(expect.arrayContaining(['MAX_BACKLOG_S', 'DATA_DIR', 'NODE_ENV']));
  });

  it('reports a path that names nothing, from the root, the document or a trailing part', () => {
    const repo: RepoTree = { paths: new Set(['src', 'src/a', 'src/a/b.ts', 'docs', 'docs/x.md', 'receivers', 'receivers/go', 'receivers/t.json']), generated: ['dist'] };
    const doc = [
      '`src/a/b.ts` `b.ts` `a/b.ts` `src/a/` `a/` `../t.json` `dist/main.js` `../../../sibling/spec.md` `receivers/go`',
      '`GET /openapi.json` `test/*.test.ts` `application/json` `@temporalio/workflow` `DATA_DIR/secrets.key`',
      '`src/a/gone.ts` `gone.ts` `b/src/` `npm test -- src/a/missing.ts` `receivers/python` `../gone.json`',
    ].join('\n');
    expect(missingPaths('receivers/go/README.md', doc, repo)).toEqual([
      'receivers/go/README.md:3 src/a/gone.ts',
      'receivers/go/README.md:3 gone.ts',
      'receivers/go/README.md:3 b/src/',
      'receivers/go/README.md:3 src/a/missing.ts',
      'receivers/go/README.md:3 receivers/python',
      'receivers/go/README.md:3 ../gone.json',
    ]);
  });

  it('finds paths and variables in inline code only, variables alone or with a value', () => {
    const doc = '```\nsrc/fenced.ts MAX_FENCED=1\n```\n`src/x.ts` src/bare.ts `MAX_BACKLOG_S=3 npm start` `PORT` `Koa.ts.d` `MAX_BACKLOG_S`\n';
    expect(citedPaths(doc).map((r) => r.name)).toEqual(['src/x.ts']);
    expect(citedEnvNames(doc)).toEqual([
      { line: 4, name: 'MAX_BACKLOG_S' },
      { line: 4, name: 'MAX_BACKLOG_S' },
    ]);
    expect(unknownEnvNames('d.md', '`MAX_BACKLOG_S` `MAX_GONE_S`', (n) => n === 'MAX_BACKLOG_S')).toEqual(['d.md:1 MAX_GONE_S']);
  });
});
