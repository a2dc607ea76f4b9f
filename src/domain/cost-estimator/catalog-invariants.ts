import { CATALOG_SIZE, CATEGORIES, ENTRIES_PER_PROVIDER_CATEGORY, PROVIDERS } from './constants';
import type { CatalogFile } from './catalog-file-schema';
import { compareCatalogOrder } from './catalog-order';

/** Every rule a schema-valid catalog breaks (CONTRACT §5), as sentences: one load reports every mistake. */
export function catalogInvariantViolations(file: CatalogFile): string[] {
  const problems: string[] = [];
  const { entries } = file;

  if (entries.length !== CATALOG_SIZE) {
    problems.push(`the catalog has ${entries.length} entries; it must have exactly ${CATALOG_SIZE}`);
  }

  const perPair = new Map<string, number>();
  for (const e of entries) perPair.set(`${e.provider}/${e.category}`, (perPair.get(`${e.provider}/${e.category}`) ?? 0) + 1);
  for (const provider of PROVIDERS) {
    for (const category of CATEGORIES) {
      const count = perPair.get(`${provider}/${category}`) ?? 0;
      if (count !== ENTRIES_PER_PROVIDER_CATEGORY) {
        problems.push(`${provider}/${category} has ${count} entries; it must have exactly ${ENTRIES_PER_PROVIDER_CATEGORY}`);
      }
    }
  }

  const seen = new Set<string>();
  entries.forEach((e, i) => {
    const where = `entries[${i}] (${e.provider} / ${e.service} / ${e.instance})`;
    // One unambiguous string per (provider, service, instance), whatever characters the names hold.
    const key = JSON.stringify([e.provider, e.service, e.instance]);
    if (seen.has(key)) problems.push(`${where} repeats an earlier (provider, service, instance)`);
    seen.add(key);
    if (e.region !== file.regions[e.provider]) {
      problems.push(`${where} is priced in ${e.region}, but the catalog's ${e.provider} region is ${file.regions[e.provider]}`);
    }
    const previous = entries[i - 1];
    if (previous !== undefined && compareCatalogOrder(previous, e) > 0) {
      problems.push(`${where} is out of catalog order (provider, category, service, instance)`);
    }
  });

  return problems;
}
