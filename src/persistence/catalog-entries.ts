import type { AnyBulkWriteOperation } from 'mongodb';
import { Catalog, type CatalogEntry, type Provider } from '../domain/cost-estimator';
import { StoreCollection } from './store-collection';

export interface CatalogEntryDoc extends CatalogEntry {
  /** `provider|service|instance`: the same entry keeps the same _id across restarts and file versions. */
  _id: string;
  /** Index in the catalog file (catalog order). */
  position: number;
  /** The catalog file version this document was last written from. */
  version: string;
}

interface CatalogMetaDoc {
  _id: 'catalog';
  version: string;
  priced_at: string;
  regions: Record<Provider, string>;
  entries: number;
  synced_at: Date;
}

const META_ID = 'catalog';
/** Statements per bulk write; see syncCatalog. */
const WRITE_BATCH = 50;

export function catalogEntryId(entry: Pick<CatalogEntry, 'provider' | 'service' | 'instance'>): string {
  return `${entry.provider}|${entry.service}|${entry.instance}`;
}

/** Synced from data/catalog.json at start-up; `catalog_meta` is written last, so the next start completes a cut-short sync. */
export class CatalogEntries extends StoreCollection<CatalogEntryDoc>('catalog_entries', [{ position: 1 }]) {
  private readonly meta = this.db.collection<CatalogMetaDoc>('catalog_meta');

  async syncCatalog(catalog: Catalog): Promise<{ version: string; upserted: number; unchanged: number; deleted: number }> {
    const desired = catalog.entries.map((entry, position): CatalogEntryDoc => ({
      _id: catalogEntryId(entry),
      ...entry,
      position,
      version: catalog.version,
    }));
    // '|' could appear inside a name; two entries must never share a document.
    if (new Set(desired.map((d) => d._id)).size !== desired.length) {
      throw new Error('Catalog entries collide on their provider|service|instance id');
    }

    const existing = new Map((await this.col.find({}).toArray()).map((doc) => [doc._id, doc]));
    const writes: AnyBulkWriteOperation<CatalogEntryDoc>[] = desired
      .filter((doc) => !sameDoc(existing.get(doc._id), doc))
      .map((doc) => ({ replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true } }));
    // In batches: FerretDB 1.24 never answers an update command of 100 or more statements that modify existing
    // documents. Of two processes upserting one new _id, one inserts and the other replaces (on both stores).
    for (let i = 0; i < writes.length; i += WRITE_BATCH) await this.col.bulkWrite(writes.slice(i, i + WRITE_BATCH), { ordered: false });

    const keep = new Set(desired.map((d) => d._id));
    const stale = [...existing.keys()].filter((id) => !keep.has(id));
    if (stale.length > 0) await this.col.deleteMany({ _id: { $in: stale } });

    await this.meta.replaceOne(
      { _id: META_ID },
      {
        version: catalog.version,
        priced_at: catalog.pricedAt,
        regions: { ...catalog.regions },
        entries: desired.length,
        synced_at: new Date(),
      },
      { upsert: true },
    );
    return { version: catalog.version, upserted: writes.length, unchanged: desired.length - writes.length, deleted: stale.length };
  }

  /** The catalog as the database holds it, in catalog order, validated like the file. */
  async loadCatalog(): Promise<Catalog> {
    const meta = await this.meta.findOne({ _id: META_ID });
    if (!meta) throw new Error('The cost catalog has not been synced into the database');
    const docs = await this.col.find({}).sort({ position: 1 }).toArray();
    return Catalog.parse({
      version: meta.version,
      priced_at: meta.priced_at,
      regions: meta.regions,
      entries: docs.map((doc) => Object.fromEntries(ENTRY_FIELDS.map((f) => [f, doc[f]]))),
    });
  }
}

const ENTRY_FIELDS = ['provider', 'category', 'service', 'instance', 'specs', 'priceUnit', 'priceUsd', 'region'] as const;

function sameDoc(a: CatalogEntryDoc | undefined, b: CatalogEntryDoc): boolean {
  return a !== undefined && a.position === b.position && a.version === b.version && ENTRY_FIELDS.every((f) => a[f] === b[f]);
}
