import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Catalog } from '../domain/cost-estimator';

/** Found from the repository root, so it resolves alike from src/ (tsx, jest) and dist/src/ (compiled). */
export const CATALOG_FILE_PATH = path.join(findRepoRoot(__dirname), 'data', 'catalog.json');

/** Reads and validates a catalog data file; throws InvalidCatalogError (or a JSON/IO error) when it is unusable. */
export async function loadCatalogFile(): Promise<Catalog> {
  const text = await readFile(CATALOG_FILE_PATH, 'utf8');
  return Catalog.parse(JSON.parse(text));
}

/** The nearest ancestor directory holding package.json (dist/ has none of its own). */
function findRepoRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return start;
    dir = parent;
  }
}
