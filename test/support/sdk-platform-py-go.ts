import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { OPENAPI_FILE } from '../../scripts/sdks/openapi-document';
import type { Platform } from '../../src/main/platform';
import { createAccountWithKey, startTestPlatform } from './platform';

const run = promisify(execFile);

/** The environment an SDK's scenario suite reads: the platform's address, two keys, and the TLS pair the platform trusts. */
export interface SdkSuiteEnv extends Record<string, string> {
  PLATFORM_URL: string;
  /** An enterprise account's key: its burst is never reached by the suite. */
  PLATFORM_API_KEY: string;
  /** A Free-tier account's key, whose burst (10 calls a minute) the 429 scenario exhausts. */
  PLATFORM_FREE_API_KEY: string;
  TLS_CERT: string;
  TLS_KEY: string;
}

/**
 * For a describe block: a platform (both roles, its own database and data directory) started before its tests and
 * stopped after them, with the environment of an SDK's scenario suite.
 */
export function sdkSuitePlatform() {
  const fixture = { platform: undefined as unknown as Platform, env: undefined as unknown as SdkSuiteEnv };
  beforeAll(async () => {
    fixture.platform = await startTestPlatform();
    const unlimited = await createAccountWithKey(fixture.platform);
    const free = await createAccountWithKey(fixture.platform, { tier: 'free' });
    const certFile = process.env.NODE_EXTRA_CA_CERTS;
    if (!certFile) throw new Error('NODE_EXTRA_CA_CERTS is not set: run the tests through `npm test`');
    fixture.env = {
      PLATFORM_URL: fixture.platform.apiUrl as string,
      PLATFORM_API_KEY: unlimited.key,
      PLATFORM_FREE_API_KEY: free.key,
      TLS_CERT: certFile,
      TLS_KEY: certFile.replace(/\.pem$/, '.key'),
    };
  }, 120_000);
  afterAll(async () => {
    await fixture.platform?.stop();
  });
  return fixture;
}

/** Runs an SDK's own test command; resolves with its output, rejects (with the output) when it fails. */
export async function sdkTests(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  try {
    const { stdout } = await run(command, args, { cwd, env: { ...process.env, ...env }, maxBuffer: 64 << 20 });
    return stdout;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
}

/** Every file under `dir` (relative path → content), caches left out: two generations compare equal when this does. */
export async function fileTree(dir: string): Promise<Record<string, string>> {
  const tree: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.parentPath.split(path.sep).includes('__pycache__')) continue;
    const file = path.join(entry.parentPath, entry.name);
    tree[path.relative(dir, file)] = await readFile(file, 'utf8');
  }
  return tree;
}

/** Changes of the OpenAPI document that must change the generated code (the generated-code checks show they are caught). */
export const DOCUMENT_CHANGES: Array<[string, (doc: any) => void]> = [
  ['a route is removed', (doc) => delete doc.paths['/api/v1/webhooks/endpoints/{id}/recover']],
  [
    'a field is removed',
    (doc) => {
      for (const status of ['200', '202']) delete doc.paths['/api/v1/webhooks/events'].post.responses[status].content['application/json'].schema.properties.destinations;
    },
  ],
];

/** What `generate` makes from a copy of sdks/openapi.json changed by `change` (a temporary directory's file tree). */
export async function generatedFromChanged(change: (doc: any) => void, generate: (outDir: string, document: string) => Promise<void>): Promise<Record<string, string>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sdk-changed-'));
  const document = JSON.parse(await readFile(OPENAPI_FILE, 'utf8'));
  change(document);
  await writeFile(path.join(dir, 'openapi.json'), JSON.stringify(document));
  await generate(path.join(dir, 'out'), path.join(dir, 'openapi.json'));
  return fileTree(path.join(dir, 'out'));
}
