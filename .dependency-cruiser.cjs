/**
 * The layer rule (docs/architecture.md): dependencies point inward.
 *   transport → services → domain;  persistence, temporal, activities → domain;
 *   domain imports nothing of ours outside itself and no file or network module; workflows import only deterministic code.
 * Run by `npm test` (scripts/run-tests.ts); test/unit/architecture/layers.test.ts shows a wrong-way import fails it.
 */
const OURS = '^(src|workflows|activities)/';
/** Code under `from` may not import anything under `to`. */
const mayNotImport = (name, from, to) => ({ name, severity: 'error', from: { path: from }, to: { path: to } });
module.exports = {
  forbidden: [
    {
      name: 'domain-imports-nothing-outward',
      comment: 'src/domain holds rules only: no HTTP, store, Temporal, config, services or delivery I/O of ours.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: OURS, pathNot: '^src/domain/' },
    },
    {
      name: 'domain-does-no-io',
      comment: 'src/domain reads no file and opens no socket: that is src/infra, passed in by src/main.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { dependencyTypes: ['core'], path: '^(node:)?(fs|dns|net|tls|dgram|http|https|http2|child_process)(/|$)' },
    },
    {
      name: 'workflows-are-deterministic',
      comment: 'workflows/ imports only @temporalio/workflow, pure domain code, search attribute keys, and types.',
      severity: 'error',
      from: { path: '^workflows/' },
      to: {
        dependencyTypesNot: ['type-only'],
        pathNot: ['^workflows/', '^src/domain/', '^src/temporal/search-attributes\\.ts$', '@temporalio/(workflow|common)'],
      },
    },
    mayNotImport('persistence-knows-no-caller', '^src/persistence/', '^(src/(transport|services|temporal|main)|activities|workflows)/'),
    mayNotImport('services-know-no-transport', '^src/services/', '^src/(transport|main)/'),
    mayNotImport('activities-know-no-api', '^activities/', '^src/(transport|services|main)/'),
    {
      name: 'nothing-imports-the-entry-points',
      severity: 'error',
      from: { pathNot: '^(src/main|test|bench|scripts)/' },
      to: { path: '^src/main/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(node_modules|dist|\\.data|\\.tools)/' },
  },
};
