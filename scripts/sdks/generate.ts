/**
 * `npm run sdks`: rewrites sdks/openapi.json from the routes, then each SDK's generated code from it.
 * Each language has `scripts/sdks/<language>.ts` exporting `generate(outDir)` (its default outDir is
 * the SDK's committed generated folder); the tests regenerate into a temporary folder and compare.
 */
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/infra/tools';
import { OPENAPI_FILE, writeOpenApiDocument } from './openapi-document';
import * as go from './go';
import * as python from './python';
import * as typescript from './typescript';

const LANGUAGES: Array<[string, { generate(outDir?: string): Promise<void> }]> = [
  ['TypeScript', typescript],
  ['Python', python],
  ['Go', go],
];

async function main(): Promise<void> {
  await writeOpenApiDocument();
  process.stdout.write(`wrote ${path.relative(PROJECT_ROOT, OPENAPI_FILE)}\n`);
  for (const [name, language] of LANGUAGES) {
    await language.generate();
    process.stdout.write(`generated the ${name} SDK\n`);
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
