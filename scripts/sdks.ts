/**
 * `npm run sdks`: rewrites sdks/openapi.json from the routes, then regenerates each SDK's generated
 * code from it with that language's pinned generator (sdks/<lang>/generate.ts). The committed code
 * must equal what this writes: test/integration/sdk-<lang>.test.ts checks it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../src/infra/tools';
import { OPENAPI_FILE, writeOpenApiDocument } from './sdks/openapi-document';

const LANGUAGES = ['typescript', 'python', 'go'] as const;

interface SdkGenerator {
  generate(openapiPath: string, outDir?: string): Promise<void>;
}

async function main(): Promise<void> {
  await writeOpenApiDocument();
  process.stdout.write(`[sdks] ${path.relative(PROJECT_ROOT, OPENAPI_FILE)} written\n`);
  for (const lang of LANGUAGES) {
    const module = path.join(PROJECT_ROOT, 'sdks', lang, 'generate.ts');
    if (!existsSync(module)) continue;
    const { generate } = (await import(module)) as SdkGenerator;
    await generate(OPENAPI_FILE);
    process.stdout.write(`[sdks] ${lang}: generated\n`);
  }
}

main().catch((err) => {
  process.stderr.write(`[sdks] ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
