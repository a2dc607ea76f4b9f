import type { Clock } from '../domain/clock';
import { DomainError } from '../domain/errors';
import type { Accounts } from '../persistence/accounts';
import type { DashboardInvites } from '../persistence/dashboard-invites';
import type { DashboardSessions } from '../persistence/dashboard-sessions';
import { checkNewPassword, hashPassword, hashSecretToken, isSecretToken, newSecretToken } from './dashboard-auth-service';

/** How long an invite link works: a day, long enough to reach a person, short enough to go stale. */
export const INVITE_LIFETIME_MS = 24 * 3600 * 1000;
export const INVITE_PATH = '/dashboard/invite';

type InviteUnusableReason = 'used' | 'expired' | 'unknown';

const INVITE_UNUSABLE_MESSAGES: Record<InviteUnusableReason, string> = {
  used: 'This link has already been used. Sign in with the password that was set, or ask your operator for a new link.',
  expired: 'This link has expired. Ask your operator for a new one (links work for 24 hours).',
  unknown: 'This link is not valid. Check that it was copied whole, or ask your operator for a new one.',
};

/** The link cannot set a password; the code (`invite_<reason>`) says why, and `reason` picks the page that explains it. */
export class InviteUnusableError extends DomainError<`invite_${InviteUnusableReason}`> {
  constructor(readonly reason: InviteUnusableReason) {
    super(`invite_${reason}`, INVITE_UNUSABLE_MESSAGES[reason]);
  }
}

/** Sets a password once for an ops-CLI account (which has none and cannot sign up), then signs them in. */
export class DashboardInviteService {
  constructor(private readonly deps: { accounts: Accounts; invites: DashboardInvites; sessions: DashboardSessions; clock: Clock }) {}

  async create(accountId: string, baseUrl: string) {
    const account = await this.deps.accounts.findById(accountId);
    if (!account) throw new DomainError('not_found', `Account ${accountId} not found.`);
    const token = newSecretToken();
    const now = this.deps.clock();
    const expiresAt = new Date(now.getTime() + INVITE_LIFETIME_MS);
    await this.deps.invites.insert({ _id: hashSecretToken(token), account_id: accountId, created_at: now, usable_until: expiresAt });
    return { account_id: accountId, email: account.email, link: `${baseUrl.replace(/\/+$/, '')}${INVITE_PATH}/${token}`, expires_at: expiresAt.toISOString() };
  }

  /** The email the link is for, or an invite_* error. */
  async check(token: string): Promise<{ email: string }> {
    const invite = await this.usable(token);
    const account = await this.deps.accounts.findById(invite.account_id);
    if (!account) throw new InviteUnusableError('unknown');
    return { email: account.email };
  }

  /** Hashed before the link is spent (a refused password leaves it usable); sessions end once the new hash is stored: the old one signs none in. */
  async redeem(token: string, password: string): Promise<string> {
    const invite = await this.usable(token);
    checkNewPassword(password);
    const hash = await hashPassword(password);
    if (!(await this.deps.invites.redeem(invite, this.deps.clock()))) throw new InviteUnusableError('used');
    if (!(await this.deps.accounts.setPasswordHash(invite.account_id, hash))) throw new InviteUnusableError('unknown');
    await this.deps.sessions.deleteForAccount(invite.account_id);
    return invite.account_id;
  }

  private async usable(token: string) {
    if (!isSecretToken(token)) throw new InviteUnusableError('unknown');
    const found = await this.deps.invites.state(hashSecretToken(token), this.deps.clock());
    if (found.state !== 'valid') throw new InviteUnusableError(found.state);
    return found.invite;
  }
}
