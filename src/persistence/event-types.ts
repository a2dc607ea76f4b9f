import type { Filter, UpdateFilter } from 'mongodb';
import { parseExact, stringifyExact } from '../domain/webhooks/exact-json';
import { accountCountsOf } from './account-counts';
import { cacheInvalidationsOf } from './cache-invalidations';
import { unlessIdTaken } from './mongo';
import { readBack } from './read-back';
import { StoreCollection } from './store-collection';

/** One entry of an account's event-type catalog (docs/event-types.md). */
export interface EventTypeDoc {
  /** `<account id>/<name>`: one entry per name and account, with no second unique index. */
  _id: string;
  account_id: string;
  name: string;
  description: string;
  /** JSON Schema (draft 2020-12) for the events' `data`; null: any data. */
  schema: Record<string, unknown> | null;
  example: Record<string, unknown> | null;
  /** Raised by every change: caches key compiled schemas by it. */
  version: number;
  created_at: Date;
  updated_at: Date;
}

/**
 * `schema` and `example` are kept as their JSON text, absent when null: FerretDB cannot store keys with `.` or `$` (a
 * schema's `$defs`, `$ref`, `$schema`) or nested arrays, and the text is compared whole when a PATCH is conditional on it.
 */
interface StoredEventTypeDoc extends Omit<EventTypeDoc, 'schema' | 'example'> {
  schema_json?: string;
  example_json?: string;
}

export type EventTypeChanges = Partial<Pick<EventTypeDoc, 'description' | 'schema' | 'example'>>;

/** The field a change was checked against, which the change is written only if it still holds. */
export type EventTypeGuard = 'schema' | 'example';

/** What ingest needs of an account's catalog: the types that have a schema. */
export type EventTypeSchemaDoc = Pick<EventTypeDoc, 'name' | 'version'> & { schema: Record<string, unknown> };

const idOf = (accountId: string, name: string) => `${accountId}/${name}`;
const JSON_FIELD = { schema: 'schema_json', example: 'example_json' } as const;

/** `event_types`: each change is logged (`event_types_changed`) so that every process's schema cache drops the account's. */
export class EventTypes extends StoreCollection<StoredEventTypeDoc>('event_types', [{ account_id: 1, name: 1 }]) {
  private readonly invalidations = cacheInvalidationsOf(this.db);
  private readonly counts = accountCountsOf(this.db);

  /** 'limit': the account holds `max` types; 'exists': the name is taken (its place given back). */
  async insertIfRoom(doc: EventTypeDoc, max: number): Promise<'inserted' | 'limit' | 'exists'> {
    const inserted = await unlessIdTaken(() => this.counts.insertIfRoom(doc.account_id, 'event_types', max, () => this.col.insertOne(toStored(doc))));
    if (inserted === null) return 'exists';
    if (!inserted) return 'limit';
    await this.invalidations.append({ kind: 'event_types_changed', account_id: doc.account_id });
    return 'inserted';
  }

  async find(accountId: string, name: string): Promise<EventTypeDoc | null> {
    const doc = await this.col.findOne({ _id: idOf(accountId, name), account_id: accountId });
    return doc && fromStored(doc);
  }

  /** By name; `after`: the last name of the previous page. */
  async list(accountId: string, limit: number, after?: string): Promise<EventTypeDoc[]> {
    const filter: Filter<StoredEventTypeDoc> = { account_id: accountId, ...(after !== undefined && { name: { $gt: after } }) };
    return (await this.col.find(filter).sort({ name: 1 }).limit(limit).toArray()).map(fromStored);
  }

  /** Every type of the account with a schema (at most the catalog's cap), without descriptions and examples. */
  async withSchemas(accountId: string): Promise<EventTypeSchemaDoc[]> {
    const docs = await this.col
      .find({ account_id: accountId, schema_json: { $exists: true } }, { projection: { _id: 0, name: 1, version: 1, schema_json: 1 } })
      .toArray();
    return docs.map((d) => ({ name: d.name, version: d.version, schema: JSON.parse(d.schema_json as string) as Record<string, unknown> }));
  }

  /**
   * Sets the changed fields (null: removes the schema or the example) in one atomic update, and answers the record after
   * it. Null: no such entry, or `guard`'s field no longer holds what it held in `read` (changed by another call meanwhile).
   */
  async update(read: EventTypeDoc, changes: EventTypeChanges, at: Date, guard?: EventTypeGuard): Promise<EventTypeDoc | null> {
    const set: Partial<StoredEventTypeDoc> = { updated_at: at };
    const unset: Partial<Record<keyof StoredEventTypeDoc, ''>> = {};
    if (changes.description !== undefined) set.description = changes.description;
    for (const field of ['schema', 'example'] as const) {
      const value = changes[field];
      if (value === null) unset[JSON_FIELD[field]] = '';
      else if (value !== undefined) set[JSON_FIELD[field]] = stringifyExact(value);
    }
    const filter: Filter<StoredEventTypeDoc> = { _id: read._id, account_id: read.account_id };
    if (guard) {
      const held = read[guard];
      filter[JSON_FIELD[guard]] = held === null ? { $exists: false } : stringifyExact(held);
    }
    const update: UpdateFilter<StoredEventTypeDoc> = { $set: set, $inc: { version: 1 }, ...(Object.keys(unset).length > 0 && { $unset: unset }) };
    const after = await this.col.findOneAndUpdate(filter, update, { returnDocument: 'after' });
    if (!after) return null;
    await this.invalidations.append({ kind: 'event_types_changed', account_id: read.account_id });
    return fromStored(after);
  }

  async delete(accountId: string, name: string): Promise<boolean> {
    const result = await this.col.deleteOne({ _id: idOf(accountId, name), account_id: accountId });
    if (result.deletedCount === 0) return false;
    await this.counts.giveBack(accountId, 'event_types');
    await this.invalidations.append({ kind: 'event_types_changed', account_id: accountId });
    return true;
  }
}

function toStored(doc: EventTypeDoc): StoredEventTypeDoc {
  const { schema, example, ...rest } = doc;
  return { ...rest, ...(schema !== null && { schema_json: stringifyExact(schema) }), ...(example !== null && { example_json: stringifyExact(example) }) };
}

function fromStored(doc: StoredEventTypeDoc): EventTypeDoc {
  const parsed = (text: string | undefined) => (text === undefined ? null : (parseExact(text) as Record<string, unknown>));
  return { ...readBack<StoredAsIs>(doc, STORED_AS_IS), schema: parsed(doc.schema_json), example: parsed(doc.example_json) };
}

/** The EventTypeDoc fields stored as they are (the type demands each): no storage-only field leaks. */
type StoredAsIs = Omit<EventTypeDoc, 'schema' | 'example'>;
const STORED_AS_IS: Record<keyof StoredAsIs, true> = {
  _id: true,
  account_id: true,
  name: true,
  description: true,
  version: true,
  created_at: true,
  updated_at: true,
};
