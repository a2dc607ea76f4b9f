import { ExpiringCollection, type ExpiringDoc } from './expiring-collection';
import { claimOnce } from './mongo';

/** `dashboard_invites`: one-time password links, `_id` the SHA-256 of the link's token (the raw token is only in the link). */
export interface DashboardInviteDoc extends ExpiringDoc {
  kind: 'invite' | 'redemption';
  account_id: string;
  created_at: Date;
}

const redemptionId = (hash: string) => `redeemed:${hash}`;

export class DashboardInvites extends ExpiringCollection<DashboardInviteDoc>('dashboard_invites') {
  async insert(doc: Omit<DashboardInviteDoc, 'kind'>): Promise<void> {
    await this.col.insertOne({ ...doc, kind: 'invite' });
  }

  /** What the link with this token hash is now (two `_id` lookups). */
  async state(hash: string, now: Date): Promise<{ state: 'valid'; invite: DashboardInviteDoc } | { state: 'used' | 'expired' | 'unknown' }> {
    const [invite, redemption] = await Promise.all([this.col.findOne({ _id: hash }), this.col.findOne({ _id: redemptionId(hash) })]);
    if (redemption) return { state: 'used' };
    if (!invite || invite.kind !== 'invite') return { state: 'unknown' };
    if (invite.expires_at.getTime() <= now.getTime()) return { state: 'expired' };
    return { state: 'valid', invite };
  }

  /** Marks the invite used; true for exactly one caller however many race (unique insert). */
  async redeem(invite: DashboardInviteDoc, now: Date): Promise<boolean> {
    return claimOnce<DashboardInviteDoc>(this.col, { _id: redemptionId(invite._id), kind: 'redemption', account_id: invite.account_id, created_at: now, expires_at: invite.expires_at });
  }
}
