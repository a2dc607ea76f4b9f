import { ExpiringCollection, type ExpiringDoc } from './expiring-collection';
import { claimOnce } from './mongo';

/** How long past its end a link is kept, so that opening it says "expired" or "used" rather than "not valid". */
export const INVITE_EXPLAINED_FOR_MS = 7 * 24 * 3600 * 1000;

/** `dashboard_invites`: one-time password links, `_id` the SHA-256 of the link's token (the raw token is only in the link). */
export interface DashboardInviteDoc extends ExpiringDoc {
  kind: 'invite' | 'redemption';
  account_id: string;
  created_at: Date;
  /** When the link stops working. Absent on invites stored before it was kept apart from `expires_at`, which was that time then. */
  usable_until?: Date;
}

const redemptionId = (hash: string) => `redeemed:${hash}`;

export class DashboardInvites extends ExpiringCollection<DashboardInviteDoc>('dashboard_invites') {
  /** The TTL index deletes it INVITE_EXPLAINED_FOR_MS after `usable_until`. */
  async insert(doc: { _id: string; account_id: string; created_at: Date; usable_until: Date }): Promise<void> {
    await this.col.insertOne({ ...doc, kind: 'invite', expires_at: new Date(doc.usable_until.getTime() + INVITE_EXPLAINED_FOR_MS) });
  }

  /** What the link with this token hash is now (two `_id` lookups). */
  async state(hash: string, now: Date): Promise<{ state: 'valid'; invite: DashboardInviteDoc } | { state: 'used' | 'expired' | 'unknown' }> {
    const [invite, redemption] = await Promise.all([this.col.findOne({ _id: hash }), this.col.findOne({ _id: redemptionId(hash) })]);
    if (redemption) return { state: 'used' };
    if (!invite || invite.kind !== 'invite') return { state: 'unknown' };
    if ((invite.usable_until ?? invite.expires_at).getTime() <= now.getTime()) return { state: 'expired' };
    return { state: 'valid', invite };
  }

  /** Marks the invite used; true for exactly one caller however many race (unique insert). Kept as long as the invite. */
  async redeem(invite: DashboardInviteDoc, now: Date): Promise<boolean> {
    return claimOnce<DashboardInviteDoc>(this.col, { _id: redemptionId(invite._id), kind: 'redemption', account_id: invite.account_id, created_at: now, expires_at: invite.expires_at });
  }
}
