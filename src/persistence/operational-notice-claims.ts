import { MAX_RECOVERY_WINDOW_MS } from '../domain/webhooks/recovery';
import { ExpiringCollection, type ExpiringDoc } from './expiring-collection';
import { claimOnce } from './store-primitives';

interface NoticeClaimDoc extends ExpiringDoc {
  /** What claimed it (a delivery round): the same claimer, retried, still holds it. */
  by: string;
}

/** Kept a day past its hour: only the current hour's claim is ever asked about. */
const KEPT_MS = 24 * 3_600_000;
/** An event's notice claims are kept as long as bulk recovery reaches back (recovery.ts); a round ending later counts afresh. */
const EVENT_CLAIMS_KEPT_MS = MAX_RECOVERY_WINDOW_MS;

/** Notices bounded across processes (once an hour per endpoint; a few per event): one claim (claim.ts) each. */
export class OperationalNoticeClaims extends ExpiringCollection<NoticeClaimDoc>('operational_notice_claims') {
  /** True for the first claimer of `kind` for this endpoint and hour, and for that claimer again (a retried activity). */
  async claimHour(kind: string, endpointId: string, hourStart: number, by: string): Promise<boolean> {
    const _id = `${kind}:${endpointId}:${hourStart}`;
    if (await claimOnce(this.col, { _id, by, expires_at: new Date(hourStart + KEPT_MS) })) return true;
    return (await this.col.findOne({ _id }, { projection: { by: 1 } }))?.by === by;
  }

  /** True while fewer than `max` claimers took one of the event's `kind` slots, and for one that took a slot, again. */
  async claimOfEvent(kind: string, eventId: number, max: number, by: string, now: Date): Promise<boolean> {
    for (let slot = 1; slot <= max; slot++) {
      const _id = `${kind}:${eventId}#${slot}`;
      if (await claimOnce(this.col, { _id, by, expires_at: new Date(now.getTime() + EVENT_CLAIMS_KEPT_MS) })) return true;
      if ((await this.col.findOne({ _id }, { projection: { by: 1 } }))?.by === by) return true;
    }
    return false;
  }
}
