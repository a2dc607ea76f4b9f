import { DomainError } from '../domain/errors';
import type { Clock } from '../domain/clock';
import { generatePortalToken, portalTokenHash, type PortalScope } from '../domain/webhooks/portal-session';
import type { AccountDoc } from '../persistence/accounts';
import type { AccountCache } from './account-cache';
import type { ApiKeyDoc } from '../persistence/api-keys';
import type { PortalSessions } from '../persistence/portal-sessions';

/** A call made with a portal session's token: its account's limits, the webhook product only, its tenant's records only. */
export interface PortalPrincipal {
  account: AccountDoc;
  key: Pick<ApiKeyDoc, 'product'>;
  portal: PortalScope;
}

interface PortalSessionServiceDeps {
  sessions: PortalSessions;
  /** Cached (account-cache.ts): a call reads only its session. */
  accounts: Pick<AccountCache, 'findById'>;
  clock: Clock;
}

/**
 * Portal sessions: made with the account's key, stored only as a hash. A call costs one store read, its session by `_id`
 * (so a revocation applies at once, in every process); its account comes from the account cache, as a key's does.
 */
export class PortalSessionService {
  constructor(private readonly deps: PortalSessionServiceDeps) {}

  /** `portalUrl`: the portal page's address; the token goes in its fragment, which no browser sends to a server. */
  async create(accountId: string, input: { tenant_id: string; expires_in_seconds: number; read_only: boolean }, portalUrl: string) {
    const token = generatePortalToken();
    const now = this.deps.clock();
    const expiresAt = new Date(now.getTime() + input.expires_in_seconds * 1000);
    await this.deps.sessions.insert({
      _id: portalTokenHash(token) as string,
      account_id: accountId,
      tenant_id: input.tenant_id,
      read_only: input.read_only,
      expires_at: expiresAt,
      created_at: now,
    });
    return { url: `${portalUrl}#token=${token}`, token, expires_at: expiresAt.toISOString(), tenant_id: input.tenant_id, read_only: input.read_only };
  }

  /** Ends every session of the account at once. */
  revokeAll(accountId: string): Promise<number> {
    return this.deps.sessions.deleteForAccount(accountId);
  }

  /** Unknown, forged, expired and revoked tokens are the same 401: nothing is said about which tokens exist. */
  async principalOf(token: string): Promise<PortalPrincipal> {
    const tokenHash = portalTokenHash(token);
    const session = tokenHash ? await this.deps.sessions.findValid(tokenHash, this.deps.clock()) : null;
    const account = session ? await this.deps.accounts.findById(session.account_id) : null;
    if (!session || !account) throw new DomainError('invalid_portal_token', 'Invalid or expired portal session token.');
    return { account, key: { product: 'weh' }, portal: { tenantId: session.tenant_id, readOnly: session.read_only } };
  }
}
