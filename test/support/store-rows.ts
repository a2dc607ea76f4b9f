import type { Db } from 'mongodb';

/**
 * The rows the embedded store's SQLite hands FerretDB for a `find` with this filter, as the patch
 * (src/infra/ferretdb-patches/equality_pushdown.go) builds its WHERE clause: those matching the
 * filter's top-level equalities on strings (and a non-zero whole-number `_id`), or the whole collection when it has none. FerretDB
 * decodes every one of them, bodies included, before it applies the rest of the filter, the sort
 * and the limit: this is what a read costs there. (On MongoDB an index bounds it anyway.)
 */
export async function rowsHandedToFerretDb(db: Db, collection: string, filter: unknown): Promise<number> {
  const pushed = Object.entries((filter ?? {}) as Record<string, unknown>).filter(
    ([k, v]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) && (typeof v === 'string' || (k === '_id' && typeof v === 'number' && v !== 0 && Number.isInteger(v))),
  );
  return db.collection(collection).countDocuments(Object.fromEntries(pushed));
}
