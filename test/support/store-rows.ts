import type { Db } from 'mongodb';

const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;
const RANGE = new Set(['$lt', '$lte', '$gt', '$gte']);

/**
 * The rows the embedded store's SQLite hands FerretDB for a `find` with this filter, as the patches
 * (src/infra/ferretdb-patches/) build its query: those matching the filter's top-level equalities on
 * strings, `$in` lists of strings and numbers (and a non-zero whole-number `_id`), or the whole collection when it has none. FerretDB
 * decodes every one of them, bodies included, before it applies the rest of the filter, the sort
 * and the limit: this is what a read costs there. A find of one string equality and a numeric
 * range on the field it sorts by, with a limit, is an index walk that stops at the limit
 * (sort_pushdown.go). (On MongoDB an index bounds it anyway.)
 */
export async function rowsHandedToFerretDb(db: Db, collection: string, filter: unknown, find: { sort?: unknown; limit?: unknown } = {}): Promise<number> {
  const entries = Object.entries((filter ?? {}) as Record<string, unknown>);
  const pushed = entries.filter(([k, v]) => FIELD.test(k) && (typeof v === 'string' || (k === '_id' && typeof v === 'number' && v !== 0 && Number.isInteger(v)) || (k !== '_id' && isInList(v))));
  const walked = indexWalkLimit(entries, find);
  if (walked !== null) return Math.min(walked, await db.collection(collection).countDocuments(filter as Record<string, unknown>));
  return db.collection(collection).countDocuments(Object.fromEntries(pushed));
}

/** The limit of a find that sort_pushdown.go answers with an index walk, else null. */
function indexWalkLimit(entries: Array<[string, unknown]>, find: { sort?: unknown; limit?: unknown }): number | null {
  // The driver sends a sort as a Map.
  const sortKeys = find.sort instanceof Map ? [...find.sort.keys()] : Object.keys((find.sort ?? {}) as Record<string, unknown>);
  if (typeof find.limit !== 'number' || find.limit <= 0 || sortKeys.length !== 1 || entries.length !== 2) return null;
  const ranged = entries.find(([k]) => k === sortKeys[0]);
  const equality = entries.find(([k, v]) => k !== sortKeys[0] && k !== '_id' && FIELD.test(k) && typeof v === 'string');
  const bounds = Object.entries((ranged?.[1] ?? {}) as Record<string, unknown>);
  const numericRange = bounds.length > 0 && bounds.every(([op, v]) => RANGE.has(op) && typeof v === 'number');
  return equality && numericRange ? find.limit : null;
}

/** A `{$in: [...]}` of strings and numbers, which equality_pushdown.go hands SQLite. */
function isInList(v: unknown): boolean {
  const list = (v as { $in?: unknown } | null)?.$in;
  const only = v !== null && typeof v === 'object' && Object.keys(v).length === 1;
  return only && Array.isArray(list) && list.length > 0 && list.every((x) => typeof x === 'string' || typeof x === 'number');
}
