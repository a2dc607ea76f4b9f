import { CATEGORIES, PROVIDERS, type Catalog, type CatalogFilter } from '../../../domain/cost-estimator';

/** GET /api/cost-estimator bodies, serialized once per filter combination: the catalog never changes while the process runs. */
export class CatalogBodies {
  private readonly bodies = new Map<string, Buffer>();

  constructor(catalog: Catalog) {
    for (const provider of [undefined, ...PROVIDERS]) {
      for (const category of [undefined, ...CATEGORIES]) {
        const filter: CatalogFilter = { provider, category };
        const services = catalog.filter(filter);
        this.bodies.set(key(filter), Buffer.from(JSON.stringify({ count: services.length, services })));
      }
    }
  }

  get(filter: CatalogFilter): Buffer {
    const body = this.bodies.get(key(filter));
    // parseCatalogQuery admits only the values precomputed above.
    if (!body) throw new Error(`No catalog body for ${key(filter)}`);
    return body;
  }
}

function key(filter: CatalogFilter): string {
  return `${filter.provider ?? '*'}/${filter.category ?? '*'}`;
}
