import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { ValidationError } from '../domain/errors';
import { serializedBytes } from '../domain/webhooks/event-type';
import type { SchemaCheckPool } from '../infra/schema-check-pool';
import type { CacheLifetime } from '../persistence/cache-invalidation-follower';
import type { Invalidation } from '../persistence/cache-invalidations';
import type { EventTypes, EventTypeSchemaDoc } from '../persistence/event-types';

/** A cached catalog's life, unless `lifetime` trusts it longer; changes made here or logged by others drop it (cache-invalidations). */
export const EVENT_TYPES_CACHE_TTL_MS = 1_000;
const OWN_LIFETIME = { ttlMs: EVENT_TYPES_CACHE_TTL_MS, maxStaleMs: EVENT_TYPES_CACHE_TTL_MS };
/** Bytes of schemas (serialized) a process keeps in its catalogs; past it the least recently used go. */
const MAX_CACHED_SCHEMA_BYTES = 32 * 1024 * 1024;
/** Counted for an account without schemas, so that their number is bounded too. */
const ENTRY_OVERHEAD_BYTES = 256;

interface Catalog {
  at: number;
  schemas: Promise<Map<string, EventTypeSchemaDoc>>;
}

/**
 * The ingest side of the catalog: the account's schemas read once (one query per uncached account, none per ingest
 * while cached), and data checked on a schema thread (SchemaCheckPool), which compiles each schema once by a key of
 * account, name, version and a hash of the schema: a type deleted and created again starts again at version 1, so the
 * version alone would find the old schema's validator.
 */
export class EventTypeSchemas {
  private readonly catalogs = new LRUCache<string, Catalog>({ maxSize: MAX_CACHED_SCHEMA_BYTES, sizeCalculation: () => ENTRY_OVERHEAD_BYTES });
  /** Each entry of a cached catalog hashed once, not at every ingest. */
  private readonly keys = new WeakMap<EventTypeSchemaDoc, string>();

  constructor(
    private readonly deps: { eventTypes: Pick<EventTypes, 'withSchemas'>; schemaChecks: Pick<SchemaCheckPool, 'check'>; now: () => number; lifetime: CacheLifetime },
  ) {}

  /** Throws 422 `schema_mismatch` with the failing paths when `type` has a schema that `data` does not match. */
  async check(accountId: string, type: string, data: unknown): Promise<void> {
    const entry = (await this.catalogOf(accountId)).get(type);
    if (!entry) return;
    const details = await this.deps.schemaChecks.check(this.keyOf(accountId, entry), entry.schema, data);
    if (details) {
      throw new ValidationError(`The event's data does not match the schema of "${type}" in the account's event-type catalog. Nothing was stored.`, details, 'schema_mismatch');
    }
  }

  clear(): void {
    this.catalogs.clear();
  }

  apply(invalidation: Invalidation): void {
    if (invalidation.kind === 'event_types_changed') this.catalogs.delete(invalidation.account_id);
  }

  private catalogOf(accountId: string): Promise<Map<string, EventTypeSchemaDoc>> {
    const hit = this.catalogs.get(accountId);
    const now = this.deps.now();
    if (hit && now - hit.at < this.deps.lifetime(now, OWN_LIFETIME).ttlMs) return hit.schemas;
    const schemas = this.deps.eventTypes.withSchemas(accountId).then((docs) => new Map(docs.map((d) => [d.name, d])));
    const entry: Catalog = { at: now, schemas };
    this.catalogs.set(accountId, entry);
    schemas.then(
      (map) => {
        const bytes = [...map.values()].reduce((sum, d) => sum + serializedBytes(d.schema), ENTRY_OVERHEAD_BYTES);
        if (this.catalogs.peek(accountId) === entry) this.catalogs.set(accountId, entry, { size: bytes });
      },
      () => {
        if (this.catalogs.peek(accountId) === entry) this.catalogs.delete(accountId);
      },
    );
    return schemas;
  }

  private keyOf(accountId: string, entry: EventTypeSchemaDoc): string {
    let key = this.keys.get(entry);
    if (key === undefined) {
      key = `${accountId}/${entry.name}#${entry.version}/${createHash('sha256').update(JSON.stringify(entry.schema)).digest('base64url')}`;
      this.keys.set(entry, key);
    }
    return key;
  }
}
