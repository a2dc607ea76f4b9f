import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Catalog } from '../domain/cost-estimator';
import { PROJECT_ROOT } from './tools';

export const CATALOG_FILE_PATH = path.join(PROJECT_ROOT, 'data', 'catalog.json');

/** Reads and validates a catalog data file; throws InvalidCatalogError (or a JSON/IO error) when it is unusable. */
export async function loadCatalogFile(): Promise<Catalog> {
  const text = await readFile(CATALOG_FILE_PATH, 'utf8');
  return Catalog.parse(JSON.parse(text));
}
