import { DomainError } from '../errors';
import type { Catalog, CatalogEntry } from './catalog';
import type { EstimateItem } from './estimate-request';

/** Exact (provider, service, instance), or with no instance the service's only one; else a 422 with index. */
export function matchCatalogEntry(catalog: Catalog, item: EstimateItem, index: number): CatalogEntry {
  const candidates = catalog.instancesOf(item.provider, item.service);
  if (candidates.length === 0) {
    throw new DomainError(
      'unknown_service',
      `items[${index}]: no catalog entry for ${item.provider} / ${item.service}.`,
      { index },
    );
  }
  const instances = candidates.map((e) => e.instance);

  if (item.instance === undefined) {
    if (candidates.length === 1) return candidates[0] as CatalogEntry;
    throw new DomainError(
      'instance_required',
      `items[${index}]: ${item.provider} / ${item.service} has ${candidates.length} instances; choose one with "instance".`,
      { index, instances },
    );
  }

  const entry = candidates.find((e) => e.instance === item.instance);
  if (!entry) {
    throw new DomainError(
      'unknown_instance',
      `items[${index}]: no catalog entry for ${item.provider} / ${item.service} / ${item.instance}.`,
      { index, instances },
    );
  }
  return entry;
}
