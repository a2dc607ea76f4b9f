import type { KeyIssuer, KeyScope } from '../domain/webhooks/idempotency-key';
import { ExpiringCollection, type ExpiringDoc } from './expiring-collection';
import { unlessIdTaken } from './mongo';

export interface IdempotencyRecordDoc extends ExpiringDoc {
  /** recordId: one record per issuer and key; a later use of an expired key replaces it. */
  _id: string;
  account_id: string;
  /** The tenant whose keys it is among (absent: the account's own). */
  tenant_id?: string;
  issuer: KeyIssuer;
  key: string;
  event_id: number;
  /** The original 202 body, answered again (with 200) to every repeat. */
  response: Record<string, unknown>;
  created_at: Date;
}

export type NewIdempotencyRecord = Omit<IdempotencyRecordDoc, '_id'>;

/**
 * `<account>:<key>` for an account's keys, `<account>/<tenant>/<key>` for a tenant's (neither id holds a `/`, so no two
 * scopes meet), `platform/<account>:<key>` for the platform's (no account id starts `platform`).
 */
function recordId({ issuer, accountId, tenantId }: KeyScope, key: string): string {
  if (issuer === 'platform') return `platform/${accountId}:${key}`;
  return tenantId === undefined ? `${accountId}:${key}` : `${accountId}/${tenantId}/${key}`;
}

const scopeOfRecord = (record: Pick<IdempotencyRecordDoc, 'issuer' | 'account_id' | 'tenant_id'>): KeyScope => ({
  issuer: record.issuer,
  accountId: record.account_id,
  ...(record.tenant_id !== undefined && { tenantId: record.tenant_id }),
});

/**
 * (key scope, key) → the event it created, valid 24 h (checked on read). One upsert decides between concurrent first uses
 * and successors of an expired record; the TTL index deletes only what is still expired when it deletes, so a successor's record stays.
 */
export class IdempotencyRecords extends ExpiringCollection<IdempotencyRecordDoc>('idempotency_records') {
  find(scope: KeyScope, key: string): Promise<IdempotencyRecordDoc | null> {
    return this.col.findOne({ _id: recordId(scope, key) });
  }

  /** Makes `record` the key's record unless a valid one exists; returns the key's record either way. */
  async claim(record: NewIdempotencyRecord, now: () => Date): Promise<IdempotencyRecordDoc> {
    const _id = recordId(scopeOfRecord(record), record.key);
    // Matches only an expired record; else the upsert's insert meets the valid one's `_id`.
    const written = await unlessIdTaken(() => this.col.findOneAndUpdate({ _id, expires_at: { $lte: now() } }, { $set: record }, { upsert: true, returnDocument: 'after' }));
    if (written) return written;
    const current = await this.col.findOne({ _id });
    if (!current) throw new Error(`idempotency record ${_id} expired and went while claimed; try again`);
    return current;
  }

  /** Retention: deletes the record if it still names `eventId` (a successor's record stays). */
  async purge(scope: KeyScope, key: string, eventId: number): Promise<void> {
    await this.col.deleteOne({ _id: recordId(scope, key), event_id: eventId });
  }
}
