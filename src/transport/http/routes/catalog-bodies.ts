import { CATEGORIES, PROVIDERS, type Catalog, type CatalogFilter } from '../../../domain/cost-estimator';

const key = (filter: CatalogFilter) => `${filter.provider ?? '*'}/${filter.category ?? '*'}`;

/** GET /api/cost-estimator bodies, serialized once per filter combination: the catalog never changes while the process runs. */
export function catalogBodies(catalog: Catalog): (filter: CatalogFilter) => Buffer {
  const bodies = new Map<string, Buffer>();
  for (const provider of [undefined, ...PROVIDERS]) {
    for (const category of [undefined, ...CATEGORIES]) {
      const services = catalog.filter({ provider, category });
      bodies.set(key({ provider, category }), Buffer.from(JSON.stringify({ count: services.length, services })));
    }
  }
  return (filter) => {
    const body = bodies.get(key(filter));
    // parseCatalogQuery admits only the values precomputed above.
    if (!body) throw new Error(`No catalog body for ${key(filter)}`);
    return body;
  };
}
