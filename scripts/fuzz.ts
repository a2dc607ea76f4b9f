/**
 * `npm run fuzz`: property-based fuzzing of the whole HTTP surface with schemathesis.
 *
 * 1. Installs schemathesis into the git-ignored virtualenv `.venv` (once).
 * 2. Starts the embedded platform (Temporal dev server + FerretDB + the API role; no worker, so
 *    nothing is ever delivered to the made-up destinations) on free ports in a temporary
 *    DATA_DIR, so it never touches `.data` or a running platform.
 * 3. Creates one enterprise account (burst 3,000/min, no quota) with a `weh` key.
 * 4. Runs `schemathesis run <api>/openapi.json` with that key against every operation of the
 *    document, all phases (examples, coverage, fuzzing, stateful), every check but one: no 5xx;
 *    status codes, content types, headers and bodies as documented; schema-invalid input
 *    rejected; auth not ignored; use-after-free and resource availability (stateful).
 *    Left out: `positive_data_acceptance`, which demands that every schema-valid request
 *    succeed. Some rules cannot be written as JSON Schema and are contract rules answered
 *    400/422: an opaque pagination cursor that does not decode (400), a well-formed URL that
 *    is not https or points at a private address (422, CONTRACT §3).
 *    Requests are paced below the enterprise burst (3,000 a minute) so that the run tests
 *    the operations, not the 429 path.
 * Exit code: schemathesis's (non-zero when it found a failure).
 *
 * Options (environment): FUZZ_MAX_EXAMPLES (default 40 per operation), FUZZ_MAX_TIME
 * (seconds, default 240), FUZZ_SEED, FUZZ_CHECKS (default "all"), FUZZ_EXCLUDE_CHECKS
 * (default "positive_data_acceptance"), FUZZ_PHASES (default "examples,coverage,fuzzing,stateful"),
 * FUZZ_WORKERS (default 2), FUZZ_RATE_LIMIT (default "2400/m").
 * Reports (JUnit + NDJSON), schemathesis's replay cache and the platform's log go to
 * test-artifacts/fuzz/ (git-ignored).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import pino from 'pino';
import path from 'node:path';
import { PROJECT_ROOT } from '../src/infra/tools';
import { startEmbeddedPlatform } from './support/embedded-platform';

const VENV = path.join(PROJECT_ROOT, '.venv');
const SCHEMATHESIS = path.join(VENV, 'bin', 'schemathesis');
/** The CLI options used below are those of schemathesis 4. */
const SCHEMATHESIS_REQUIREMENT = 'schemathesis>=4.3,<5';

/** The schemathesis options a run may override from the environment: [option, variable, default]. */
const ENV_OPTIONS: ReadonlyArray<readonly [option: string, variable: string, fallback: string]> = [
  ['--checks', 'FUZZ_CHECKS', 'all'],
  ['--exclude-checks', 'FUZZ_EXCLUDE_CHECKS', 'positive_data_acceptance'],
  ['--rate-limit', 'FUZZ_RATE_LIMIT', '2400/m'],
  ['--phases', 'FUZZ_PHASES', 'examples,coverage,fuzzing,stateful'],
  ['--max-examples', 'FUZZ_MAX_EXAMPLES', '40'],
  ['--max-time', 'FUZZ_MAX_TIME', '240'],
  ['--workers', 'FUZZ_WORKERS', '2'],
];

function optionsFromEnvironment(): string[] {
  return ENV_OPTIONS.flatMap(([option, variable, fallback]) => [option, process.env[variable] ?? fallback]);
}

function log(line: string): void {
  process.stderr.write(`[fuzz] ${line}\n`);
}

function ensureSchemathesis(): void {
  if (existsSync(SCHEMATHESIS)) return;
  log(`installing ${SCHEMATHESIS_REQUIREMENT} into .venv (first time only)...`);
  const steps: string[][] = [
    ['python3', '-m', 'venv', VENV],
    [path.join(VENV, 'bin', 'pip'), 'install', '--quiet', '--disable-pip-version-check', SCHEMATHESIS_REQUIREMENT],
  ];
  for (const [cmd, ...args] of steps) {
    const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: PROJECT_ROOT });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
  }
}

async function main(): Promise<number> {
  ensureSchemathesis();
  const started = Date.now();
  const reportDir = path.join(PROJECT_ROOT, 'test-artifacts', 'fuzz');
  await mkdir(reportDir, { recursive: true });
  const logFile = path.join(reportDir, 'platform.log');
  log(`starting the embedded platform on free ports in a temporary DATA_DIR (log: ${path.relative(PROJECT_ROOT, logFile)})...`);
  const logger = pino({ name: 'platform', level: process.env.FUZZ_LOG_LEVEL ?? 'warn' }, pino.destination({ dest: logFile, sync: true }));
  // The API role only: the fuzzer registers endpoints at hosts it makes up (and public ones from the
  // document's examples); no worker runs, so ingested events are never delivered anywhere.
  const stack = await startEmbeddedPlatform({ roles: { api: true, worker: false }, logger });
  try {
    const accounts = stack.platform.services.accounts;
    const account = await accounts.createAccount(`fuzz-${Date.now()}@example.test`, 'enterprise');
    const { key } = await accounts.createKey(account.id, 'weh', 'fuzz');
    log(`platform up at ${stack.apiUrl} in ${Math.round((Date.now() - started) / 1000)} s; enterprise account ${account.id}`);
    const args = [
      'run',
      `${stack.apiUrl}/openapi.json`,
      '--header',
      `Authorization: Bearer ${key}`,
      // The cost estimator takes an optional key in x-api-key: with it, its calls get the enterprise burst too.
      '--header',
      `x-api-key: ${key}`,
      ...optionsFromEnvironment(),
      '--request-timeout',
      '10',
      '--generation-database',
      'none',
      '--report',
      'junit,ndjson',
      '--report-dir',
      reportDir,
      '--no-color',
      ...(process.env.FUZZ_SEED ? ['--seed', process.env.FUZZ_SEED] : []),
      ...process.argv.slice(2),
    ];
    log(`schemathesis ${args.join(' ').replaceAll(key, '<key>')}`);
    const code = await new Promise<number>((resolve) => {
      // cwd: schemathesis keeps its replay cache (.schemathesis/) in the working directory.
      const child = spawn(SCHEMATHESIS, args, { stdio: 'inherit', cwd: reportDir });
      child.once('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
    });
    log(`schemathesis exited ${code} after ${Math.round((Date.now() - started) / 1000)} s (reports and the platform log in ${path.relative(PROJECT_ROOT, reportDir)}/)`);
    return code;
  } finally {
    await stack.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    log(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  },
);
