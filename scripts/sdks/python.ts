/**
 * Generates the Python SDK's client (sdks/python/src/platform_sdk/generated) from sdks/openapi.json with the
 * pinned openapi-python-client and its config file (sdks/python/openapi-python-client.yaml).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../src/infra/tools';
import { ensurePythonSdkToolchain, PYTHON_SDK_DIR, VENV_BIN } from '../../test/support/sdk-toolchains';
import { OPENAPI_FILE } from './openapi-document';

const run = promisify(execFile);

export const PYTHON_GENERATED_DIR = path.join(PYTHON_SDK_DIR, 'src', 'platform_sdk', 'generated');
export const PYTHON_GENERATOR_CONFIG = path.join(PYTHON_SDK_DIR, 'openapi-python-client.yaml');

/** Writes the generated package into `outDir` (replacing it), from `document` (the committed OpenAPI document unless told). */
export async function generate(outDir: string = PYTHON_GENERATED_DIR, document: string = OPENAPI_FILE): Promise<void> {
  await ensurePythonSdkToolchain(() => undefined);
  await run(
    path.join(VENV_BIN, 'openapi-python-client'),
    ['generate', '--path', document, '--meta', 'none', '--output-path', outDir, '--overwrite', '--config', PYTHON_GENERATOR_CONFIG],
    { cwd: PROJECT_ROOT, maxBuffer: 16 << 20 },
  );
}
