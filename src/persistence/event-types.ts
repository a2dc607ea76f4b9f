import type { Filter } from 'mongodb';
import { accountCountsOf } from './account-counts';
import { cacheInvalidationsOf } from './cache-invalidations';
import { isDuplicateKeyError } from './mongo';
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

export type EventTypeChanges = Partial<Pick<EventTypeDoc, 'description' | 'schema' | 'example'>>;

/** What ingest needs of an account's catalog: the types that have a schema. */
export type EventTypeSchemaDoc = Pick<EventTypeDoc, 'name' | 'version'> & { schema: Record<string, unknown> };

const idOf = (accountId: string, name: string) => `${accountId}/${name}`;

/** `event_types`: each change is logged (`event_types_changed`) so that every process's schema cache drops the account's. */
export class EventTypes extends StoreCollection<EventTypeDoc>('event_types', [{ account_id: 1, name: 1 }]) {
  private readonly invalidations = cacheInvalidationsOf(this.db);
  private readonly counts = accountCountsOf(this.db);

  /** 'limit': the account holds `max` types; 'exists': the name is taken (its place given back). */
  async insertIfRoom(doc: EventTypeDoc, max: number): Promise<'inserted' | 'limit' | 'exists'> {
    try {
      if (!(await this.counts.insertIfRoom(doc.account_id, 'event_types', max, () => this.col.insertOne(doc)))) return 'limit';
    } catch (err) {
      if (isDuplicateKeyError(err)) return 'exists';
      throw err;
    }
    await this.invalidations.append({ kind: 'event_types_changed', account_id: doc.account_id });
    return 'inserted';
  }

  find(accountId: string, name: string): Promise<EventTypeDoc | null> {
    return this.col.findOne({ _id: idOf(accountId, name), account_id: accountId });
  }

  /** By name; `after`: the last name of the previous page. */
  list(accountId: string, limit: number, after?: string): Promise<EventTypeDoc[]> {
    const filter: Filter<EventTypeDoc> = { account_id: accountId, ...(after !== undefined && { name: { $gt: after } }) };
    return this.col.find(filter).sort({ name: 1 }).limit(limit).toArray();
  }

  /** Every type of the account with a schema (at most the catalog's cap), without descriptions and examples. */
  withSchemas(accountId: string): Promise<EventTypeSchemaDoc[]> {
    return this.col
      .find({ account_id: accountId, schema: { $ne: null } }, { projection: { _id: 0, name: 1, version: 1, schema: 1 } })
      .toArray() as Promise<EventTypeSchemaDoc[]>;
  }

  /**
   * Applies `changes` if the entry is still at `current.version` (else null: changed or deleted meanwhile). The record is
   * replaced whole: the embedded store ignores a `$set` of a document over a document (docs/embedded-store.md).
   */
  async update(current: EventTypeDoc, changes: EventTypeChanges, at: Date): Promise<EventTypeDoc | null> {
    const next: EventTypeDoc = { ...current, ...changes, version: current.version + 1, updated_at: at };
    const result = await this.col.replaceOne({ _id: current._id, version: current.version }, next);
    if (result.matchedCount === 0) return null;
    await this.invalidations.append({ kind: 'event_types_changed', account_id: current.account_id });
    return next;
  }

  async delete(accountId: string, name: string): Promise<boolean> {
    const result = await this.col.deleteOne({ _id: idOf(accountId, name), account_id: accountId });
    if (result.deletedCount === 0) return false;
    await this.counts.giveBack(accountId, 'event_types');
    await this.invalidations.append({ kind: 'event_types_changed', account_id: accountId });
    return true;
  }
}
