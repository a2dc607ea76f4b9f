import { DomainError, ValidationError } from '../domain/errors';
import { DEFAULT_PORTAL_SETTINGS, normalizedOrigins, type PortalSettings } from '../domain/webhooks/portal-settings';
import type { AccountDoc, Accounts } from '../persistence/accounts';

/** The account's portal settings (portal-settings.ts), read fresh on every call: the portal page's headers come from them. */
export class PortalSettingsService {
  constructor(private readonly deps: { accounts: Pick<Accounts, 'findById' | 'setPortalSettings'> }) {}

  /** The account's settings, the defaults filling what was never set; null for an unknown account. */
  async find(accountId: string): Promise<PortalSettings | null> {
    return settingsOf(await this.deps.accounts.findById(accountId));
  }

  async get(accountId: string): Promise<PortalSettings> {
    const settings = await this.find(accountId);
    if (!settings) throw new DomainError('not_found', 'Account not found.');
    return settings;
  }

  /** Changes the fields given (already checked by the API's schema), leaving the others as they are. */
  async update(accountId: string, changes: Partial<PortalSettings>): Promise<PortalSettings> {
    if (changes.allowed_origins) {
      const origins = normalizedOrigins(changes.allowed_origins);
      if (!origins) throw new ValidationError('allowed_origins: every entry must be an origin.', [{ path: 'allowed_origins', message: 'every entry must be an origin' }]);
      changes = { ...changes, allowed_origins: origins };
    }
    const settings = settingsOf(await this.deps.accounts.setPortalSettings(accountId, changes));
    if (!settings) throw new DomainError('not_found', 'Account not found.');
    return settings;
  }
}

/** The defaults filling what was never set. */
function settingsOf(account: Pick<AccountDoc, 'portal_settings'> | null): PortalSettings | null {
  return account ? { ...DEFAULT_PORTAL_SETTINGS, ...account.portal_settings } : null;
}
