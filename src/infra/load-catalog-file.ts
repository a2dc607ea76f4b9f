import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Catalog } from '../domain/cost-estimator';

/**
 * The versioned catalog data file, found from the repository root so it resolves the same way
 * whether this module runs from src/ (tsx, jest) or from dist/src/ (compiled).
 */
export const CATALOG_FILE_PATH = path.join(findRepoRoot(__dirname), 'data', 'catalog.json');

/** Reads and validates a catalog data file; throws InvalidCatalogError (or a JSON/IO error) when it is unusable. */
export async function loadCatalogFile(file: string = CATALOG_FILE_PATH): Promise<Catalog> {
  const text = await readFile(file, 'utf8');
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
