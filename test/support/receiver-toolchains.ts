/**
 * What the receiver libraries' tests need beyond the repository, installed once from the
 * registries and announced (scripts/run-tests.ts): a Python virtual environment (`.venv`, git-ignored)
 * with pytest and the official `standardwebhooks` package, and the official npm `standardwebhooks`
 * package in `.data/receivers-oracle` (git-ignored). The Go library has no dependencies: only `go`
 * must be on the PATH. The official packages are the oracle the platform's deliveries are checked against.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../src/infra/tools';

const run = promisify(execFile);

export const ORACLE_VERSIONS = { npm: 'standardwebhooks@1.1.1', pypi: 'standardwebhooks==1.1.0', pytest: 'pytest>=7' } as const;
export const VENV_DIR = path.join(PROJECT_ROOT, '.venv');
export const VENV_PYTHON = path.join(VENV_DIR, 'bin', 'python');
export const NPM_ORACLE_DIR = path.join(PROJECT_ROOT, '.data', 'receivers-oracle');
export const NPM_ORACLE_MODULE = path.join(NPM_ORACLE_DIR, 'node_modules', 'standardwebhooks');
export const RECEIVERS_DIR = path.join(PROJECT_ROOT, 'receivers');

export async function ensureReceiverToolchains(log: (line: string) => void = (line) => process.stderr.write(`[provision] ${line}\n`)): Promise<void> {
  const go = await run('go', ['version']).catch(() => undefined);
  if (!go) throw new Error('`go` is not on the PATH: the Go receiver library is tested with it (install Go 1.21 or later)');
  log(`Go receiver library: ${go.stdout.trim()} (no modules to download)`);

  if (!existsSync(VENV_PYTHON)) {
    log(`Python: creating ${path.relative(PROJECT_ROOT, VENV_DIR)} (python3 -m venv)`);
    await run('python3', ['-m', 'venv', VENV_DIR]);
  }
  const hasPython = await run(VENV_PYTHON, ['-c', 'import pytest, standardwebhooks']).then(
    () => true,
    () => false,
  );
  if (hasPython) log(`Python: ${ORACLE_VERSIONS.pypi} and pytest ready in .venv`);
  else {
    log(`Python: installing ${ORACLE_VERSIONS.pypi} (the oracle) and ${ORACLE_VERSIONS.pytest} into .venv from PyPI...`);
    await run(VENV_PYTHON, ['-m', 'pip', 'install', '--quiet', ORACLE_VERSIONS.pypi, ORACLE_VERSIONS.pytest], { maxBuffer: 16 << 20 });
  }

  if (existsSync(path.join(NPM_ORACLE_MODULE, 'package.json'))) log(`npm: ${ORACLE_VERSIONS.npm} ready in ${path.relative(PROJECT_ROOT, NPM_ORACLE_DIR)}`);
  else {
    log(`npm: installing ${ORACLE_VERSIONS.npm} (the oracle) into ${path.relative(PROJECT_ROOT, NPM_ORACLE_DIR)} from the npm registry...`);
    await run('npm', ['install', '--prefix', NPM_ORACLE_DIR, '--no-audit', '--no-fund', '--no-save', '--loglevel=error', ORACLE_VERSIONS.npm], { maxBuffer: 16 << 20 });
  }
}
