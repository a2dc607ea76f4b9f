import { ExpiringCollection, type ExpiringDoc } from './expiring-collection';
import { claimOnce } from './mongo';

interface NoticeClaimDoc extends ExpiringDoc {
  /** What claimed it (a delivery round): the same claimer, retried, still holds it. */
  by: string;
}

/** Kept a day past its hour: only the current hour's claim is ever asked about. */
const KEPT_MS = 24 * 3_600_000;

/** Notices sent at most once an hour per endpoint across processes: the unique insert of the hour's claim decides. */
export class OperationalNoticeClaims extends ExpiringCollection<NoticeClaimDoc>('operational_notice_claims') {
  /** True for the first claimer of `kind` for this endpoint and hour, and for that claimer again (a retried activity). */
  async claimHour(kind: string, endpointId: string, hourStart: number, by: string): Promise<boolean> {
    const _id = `${kind}:${endpointId}:${hourStart}`;
    if (await claimOnce(this.col, { _id, by, expires_at: new Date(hourStart + KEPT_MS) })) return true;
    return (await this.col.findOne({ _id }, { projection: { by: 1 } }))?.by === by;
  }
}
