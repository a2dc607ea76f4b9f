import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { OPENAPI_FILE } from '../../scripts/sdks/openapi-document';

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
      delete doc.components.schemas.SentEvent.properties.destinations;
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
