import { CATEGORIES, PROVIDERS } from './constants';
import type { CatalogEntry } from './catalog-file-schema';

/**
 * Catalog order (CONTRACT §5): provider, category (both in the spec's order), service, instance.
 * Names compare by UTF-16 code unit, not locale, so the order is the same on every machine.
 */
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
