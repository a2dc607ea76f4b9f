import type { Catalog } from '../../../domain/cost-estimator';
import type { LimitAdmitter } from '../../../domain/limits/admission';
import type { Logger } from '../../../infra/logger';
import type { AccountService } from '../../../services/account-service';
import type { DashboardAuthService } from '../../../services/dashboard-auth-service';
import type { DashboardInviteService } from '../../../services/dashboard-invite-service';
import type { DeliveryControl } from '../../../services/delivery-control';
import type { EndpointPause } from '../../../services/endpoint-pause';
import type { EndpointService } from '../../../services/endpoint-service';
import type { EventService } from '../../../services/event-service';
import type { IngestAdmission } from '../../../services/ingest-admission';
import type { KeyAuthenticator } from '../../../services/key-authenticator';
import type { RecoveryService } from '../../../services/recovery-service';

/** What the dashboard uses: the same services as the API, called server-side for the signed-in account. */
export interface DashboardDeps {
  auth: DashboardAuthService;
  invites: DashboardInviteService;
  accounts: AccountService;
  /** Confirms that a just-created key shown once belongs to the signed-in account. */
  authenticator: KeyAuthenticator;
  endpoints: EndpointService;
  endpointPause: EndpointPause;
  events: EventService;
  /** Retry now (one delivery, or every waiting delivery of an endpoint) and cancel. */
  deliveryControl: DeliveryControl;
  /** Whether this process takes a test event now, as for an API ingest (ingest-admission.ts). */
  admission: Pick<IngestAdmission, 'admit'>;
  bulkRecovery: RecoveryService;
  limiter: LimitAdmitter;
  catalog: () => Promise<Catalog>;
  logger: Logger;
}
