import type { Catalog } from '../domain/cost-estimator';
import type { Logger } from '../infra/logger';
import type { CatalogEntries } from '../persistence/catalog-entries';

/** Synced into the database and read back, so what the API serves is exactly what the database holds. */
export async function syncAndLoadCatalog(entries: CatalogEntries, logger: Logger, readCatalogFile: () => Promise<Catalog>): Promise<Catalog> {
  const fromFile = await readCatalogFile();
  await entries.ensureIndexes();
  const result = await entries.syncCatalog(fromFile);
  logger.info(result, 'cost catalog synced');
  return entries.loadCatalog();
}
