/**
 * `npm test`: installs what the selected tests need (embedded servers and the test server for
 * the workflow, integration and e2e projects; the brokers, the receiver libraries' Python venv and oracle
 * packages for integration; the test CA always), type-checks, then runs jest with
 * NODE_EXTRA_CA_CERTS set, which Node reads only at start-up. Extra arguments go to jest
 * (e.g. `npm test -- --selectProjects unit`, or `npm test -- test/unit`, which provision no server).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildArgv } from 'jest';
import { provision } from '../src/infra/provision';
import { PROJECT_ROOT } from '../src/infra/tools';
import { ensureReceiverToolchains } from '../test/support/receiver-toolchains';
import { ensureTestCertificate } from '../test/support/test-ca';
import { projectsToRun, testFiles, type TestProject } from './test-selection';

const jestConfig = require('../jest.config.js') as { projects: TestProject[] };

async function main(): Promise<number> {
  const started = Date.now();
  const projects = projectsToRun(await buildArgv(process.argv.slice(2)), jestConfig.projects, PROJECT_ROOT, testFiles(PROJECT_ROOT));
  // Only projects with a global setup start servers (jest.config.js).
  if (projects.some((p) => p.globalSetup)) {
    // The brokers too for integration (each test file starts its own; provisioned here, up front and beside the rest, the first time).
    const brokers = projects.some((p) => p.displayName === 'integration');
    await provision({
      need: { temporalCli: !process.env.TEMPORAL_ADDRESS, ferretDb: !process.env.MONGODB_URI, temporalTestServer: true, rabbitMq: brokers, kafka: brokers, elasticMq: brokers },
    });
  }
  const cert = await ensureTestCertificate(path.join(PROJECT_ROOT, '.data', 'test-ca'));
  // The receiver libraries' own tests and their oracle (test/integration/receivers.test.ts).
  if (projects.some((p) => p.displayName === 'integration')) await ensureReceiverToolchains();
  const names = projects.map((p) => p.displayName).join(', ') || 'none';
  process.stderr.write(`[test] projects: ${names}; provisioning checked in ${Math.round((Date.now() - started) / 1000)} s; type-checking...\n`);
  const bin = (name: string) => path.join(PROJECT_ROOT, 'node_modules', '.bin', name);
  const tsc = spawnSync(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json'], { stdio: 'inherit', cwd: PROJECT_ROOT });
  if (tsc.status !== 0) return tsc.status ?? 1;
  const resultsFile = path.join(PROJECT_ROOT, '.data', 'jest-results.json');
  const jest = spawnSync(bin('jest'), ['--json', `--outputFile=${resultsFile}`, ...process.argv.slice(2)], {
    stdio: 'inherit',
    cwd: PROJECT_ROOT,
    env: { ...process.env, NODE_EXTRA_CA_CERTS: cert.certFile, NODE_OPTIONS: withHeapOf(JEST_HEAP_MB, process.env.NODE_OPTIONS) },
  });
  printSummary(resultsFile, Date.now() - started);
  return jest.status ?? 1;
}

/**
 * On two cores jest runs every file in its own process (one worker or less: in band), whose heap grows with the files run:
 * the whole suite passed V8's default ceiling (about 4 GB here) and died out of memory near its end. A larger ceiling, not a
 * smaller suite; a NODE_OPTIONS that sets one already wins.
 */
const JEST_HEAP_MB = 8192;

function withHeapOf(mb: number, nodeOptions = ''): string {
  return nodeOptions.includes('--max-old-space-size') ? nodeOptions : `${nodeOptions} --max-old-space-size=${mb}`.trim();
}

/** One plain closing line, `N passed, N failed, N skipped`, whatever reads the log. */
function printSummary(resultsFile: string, elapsedMs: number): void {
  try {
    const r = JSON.parse(readFileSync(resultsFile, 'utf8')) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
    process.stdout.write(`\n[test] finished in ${Math.round(elapsedMs / 1000)} s\n`);
    process.stdout.write(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped\n`);
  } catch {
    /* jest did not get far enough to write results; its own output says why */
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`[test] ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
