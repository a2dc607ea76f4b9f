/**
 * One jest project per kind of test, each a folder under test/ (a new test file is picked up by
 * its folder). Unit tests run in-process and need no server; the other projects share one
 * Temporal dev server and one FerretDB, started by their global setup. Jest runs a project's
 * global setup only when one of its tests is selected, and the same module once for all, so
 * `--selectProjects unit` (or `test/unit` as the path) starts no server. scripts/run-tests.ts
 * reads these projects to provision only what the selected ones need.
 */
const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.tsx?$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
};
const withServers = {
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
};

module.exports = {
  testTimeout: 120000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    // Top-level test files (none today) run here: they get the servers, whatever they are.
    { ...common, ...withServers, displayName: 'workflow', testMatch: ['<rootDir>/test/workflow/**/*.test.ts', '<rootDir>/test/*.test.ts'] },
    { ...common, ...withServers, displayName: 'integration', testMatch: ['<rootDir>/test/integration/**/*.test.ts'] },
    { ...common, ...withServers, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.test.ts'] },
  ],
};
