/**
 * What the Python and Go SDKs need beyond the repository, installed once from the registries (idempotent):
 * the pinned generators and the SDKs' runtime dependencies. Python: openapi-python-client and the SDK's
 * dependencies into the project `.venv` (made by ensureReceiverToolchains, which also brings pytest and the
 * receiver library's needs). Go: the Go module cache (the SDK module's requirements, and oapi-codegen, run as
 * `go run <module>@<version>` so that no binary is kept in the repository).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../src/infra/tools';
import { ensureReceiverToolchains, VENV_PYTHON } from './receiver-toolchains';

const run = promisify(execFile);

export const SDK_GENERATORS = {
  python: 'openapi-python-client==0.29.1',
  go: 'github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2',
} as const;

/** The runtime dependencies of sdks/python (its pyproject.toml says the same) and of the code it generates. */
export const PYTHON_SDK_DEPENDENCIES = ['httpx>=0.23,<0.29', 'attrs>=22.2', 'python-dateutil>=2.8'] as const;

export const VENV_BIN = path.dirname(VENV_PYTHON);
export const PYTHON_SDK_DIR = path.join(PROJECT_ROOT, 'sdks', 'python');
export const GO_SDK_DIR = path.join(PROJECT_ROOT, 'sdks', 'go');

const quiet = { maxBuffer: 16 << 20 };

export async function ensurePythonSdkToolchain(log: (line: string) => void = (line) => process.stderr.write(`[provision] ${line}\n`)): Promise<void> {
  await ensureReceiverToolchains(log);
  const version = await run(path.join(VENV_BIN, 'openapi-python-client'), ['--version']).then(
    (r) => r.stdout.trim(),
    () => '',
  );
  const hasRuntime = await run(VENV_PYTHON, ['-c', 'import httpx, attrs, dateutil']).then(
    () => true,
    () => false,
  );
  const wanted = SDK_GENERATORS.python.split('==')[1];
  if (version.endsWith(wanted) && hasRuntime) {
    log(`Python SDK: ${SDK_GENERATORS.python} and its runtime dependencies ready in .venv`);
    return;
  }
  log(`Python SDK: installing ${SDK_GENERATORS.python} and ${PYTHON_SDK_DEPENDENCIES.join(', ')} into .venv from PyPI...`);
  await run(VENV_PYTHON, ['-m', 'pip', 'install', '--quiet', SDK_GENERATORS.python, ...PYTHON_SDK_DEPENDENCIES], quiet);
}

export async function ensureGoSdkToolchain(log: (line: string) => void = (line) => process.stderr.write(`[provision] ${line}\n`)): Promise<void> {
  const go = await run('go', ['version']).catch(() => undefined);
  if (!go) throw new Error('`go` is not on the PATH: the Go SDK is generated and tested with it (install Go 1.24 or later)');
  // Both are no-ops once the module cache has them.
  log(`Go SDK: ${go.stdout.trim()}; downloading the SDK's modules and ${SDK_GENERATORS.go} (once) from the Go module proxy...`);
  await run('go', ['mod', 'download'], { ...quiet, cwd: GO_SDK_DIR });
  await run('go', ['run', SDK_GENERATORS.go, '-version'], { ...quiet, cwd: GO_SDK_DIR });
}
