/**
 * The TypeScript SDK's generated part: sdks/typescript/src/generated/openapi.ts, the types of
 * sdks/openapi.json made by openapi-typescript (the version pinned in sdks/typescript/package.json,
 * installed in sdks/typescript/node_modules from the npm registry by `ensureTypeScriptSdk`).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../src/infra/tools';
import { OPENAPI_FILE } from './openapi-document';

const run = promisify(execFile);

export const TYPESCRIPT_SDK_DIR = path.join(PROJECT_ROOT, 'sdks', 'typescript');
export const TYPESCRIPT_GENERATED_DIR = path.join(TYPESCRIPT_SDK_DIR, 'src', 'generated');
const bin = (name: string) => path.join(TYPESCRIPT_SDK_DIR, 'node_modules', '.bin', name);

/** Installs the SDK's locked dependencies (generator, runtime, test runner) once; a no-op when they are there. */
export async function ensureTypeScriptSdk(log: (line: string) => void = (line) => process.stderr.write(`[provision] ${line}\n`)): Promise<void> {
  const ready = ['openapi-typescript', 'tsx', 'tsc'].every((name) => existsSync(bin(name))) && existsSync(path.join(TYPESCRIPT_SDK_DIR, 'node_modules', 'openapi-fetch', 'package.json'));
  if (ready) return;
  log('TypeScript SDK: installing its locked dependencies into sdks/typescript/node_modules (npm ci)...');
  await run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: TYPESCRIPT_SDK_DIR, maxBuffer: 16 << 20 });
}

/** Writes `openapi.ts` into `outDir`, generated from `documentFile` (default sdks/openapi.json). */
export async function generate(outDir: string = TYPESCRIPT_GENERATED_DIR, documentFile: string = OPENAPI_FILE): Promise<void> {
  await ensureTypeScriptSdk();
  await mkdir(outDir, { recursive: true });
  // --enum-values: the error codes (and every other enum) as runtime arrays too, not only as types.
  // --default-non-nullable false: a request field with a default (a destination's routing_key, tls) stays optional to send.
  await run(bin('openapi-typescript'), [documentFile, '--output', path.join(outDir, 'openapi.ts'), '--enum-values', '--default-non-nullable', 'false'], { cwd: TYPESCRIPT_SDK_DIR, maxBuffer: 16 << 20 });
}
