import type { LimitAdmitter } from '../../../domain/limits/admission';
import type { Logger } from '../../../infra/logger';
import type { AccountService } from '../../../services/account-service';
import type { DashboardAuthService } from '../../../services/dashboard-auth-service';
import type { DashboardInviteService } from '../../../services/dashboard-invite-service';
import type { IngestAdmission } from '../../../services/ingest-admission';
import type { KeyAuthenticator } from '../../../services/key-authenticator';
import type { ApiRouteDeps } from '../api-routes';
import type { Unreachable } from '../dependency-down';

/** What the dashboard uses: the same services as the API, called server-side for the signed-in account. */
export interface DashboardDeps extends Pick<ApiRouteDeps, 'endpoints' | 'events' | 'catalog' | 'tenants' | 'portalSessions' | 'portalSettings'> {
  auth: DashboardAuthService;
  invites: DashboardInviteService;
  accounts: AccountService;
  /** Confirms that a just-created key shown once belongs to the signed-in account. */
  authenticator: KeyAuthenticator;
  /** Whether this process takes a test event now, as for an API ingest (ingest-admission.ts). */
  admission: Pick<IngestAdmission, 'admit'>;
  limiter: LimitAdmitter;
  logger: Logger;
  /** PUBLIC_URL's origin when set (config.publicOrigin): the Origin forms must come from, and whether cookies are Secure. */
  publicOrigin: string | undefined;
  /** A dependency's error that makes a page a 503 (dependency-down.ts). */
  unreachable?: Unreachable;
}
