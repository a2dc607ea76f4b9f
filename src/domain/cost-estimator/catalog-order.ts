import { CATEGORIES, PROVIDERS } from './constants';
import type { CatalogEntry } from './catalog-file-schema';

/** Provider, category (spec order), service, instance; by code unit, not locale: alike on every machine. */
export function compareCatalogOrder(a: CatalogEntry, b: CatalogEntry): number {
  return (
    PROVIDERS.indexOf(a.provider) - PROVIDERS.indexOf(b.provider) ||
    CATEGORIES.indexOf(a.category) - CATEGORIES.indexOf(b.category) ||
    compareCodeUnits(a.service, b.service) ||
    compareCodeUnits(a.instance, b.instance)
  );
}

function compareCodeUnits(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}
