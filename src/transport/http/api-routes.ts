import type { Catalog } from '../../domain/cost-estimator';
import type { EndpointService } from '../../services/endpoint-service';
import type { EventService } from '../../services/event-service';
import type { EventTypeService } from '../../services/event-type-service';
import type { TenantService } from '../../services/tenant-service';
import type { PortalSessionService } from '../../services/portal-session-service';
import type { PortalSettingsService } from '../../services/portal-settings-service';
import type { AnyRoute } from './app';
import { costEstimatorRoutes } from './routes/cost-estimator';
import { deliveryControlRoutes } from './routes/webhooks/delivery-control';
import { docsRoutes } from './routes/docs';
import { HealthChecks, healthz, readyz } from './routes/health';
import { endpointRoutes } from './routes/webhooks/endpoints';
import { eventRoutes } from './routes/webhooks/events';
import { eventTypeRoutes } from './routes/webhooks/event-types';
import { tenantRoutes } from './routes/webhooks/tenants';
import { portalSessionRoutes } from './routes/webhooks/portal-sessions';
import { portalSettingsRoutes } from './routes/webhooks/portal-settings';

export interface ApiRouteDeps {
  health: HealthChecks;
  getDocument: () => object;
  endpoints: EndpointService;
  events: EventService;
  eventTypes: EventTypeService;
  tenants: TenantService;
  portalSessions: PortalSessionService;
  portalSettings: PortalSettingsService;
  /** PUBLIC_URL's origin: where portal pages are served (else the origin of the call that makes the session). */
  publicOrigin?: string;
  catalog: Catalog;
}

/** Every route of the API, in one list: what the server mounts and what the OpenAPI document describes. */
export function apiRoutes(deps: ApiRouteDeps): AnyRoute[] {
  return [
    healthz,
    readyz(deps.health),
    ...docsRoutes(deps.getDocument),
    ...endpointRoutes(deps.endpoints, deps.events),
    ...eventRoutes(deps.events),
    ...eventTypeRoutes(deps.eventTypes),
    ...tenantRoutes(deps.tenants, deps.endpoints),
    ...portalSessionRoutes(deps.portalSessions, deps.publicOrigin),
    ...portalSettingsRoutes(deps.portalSettings),
    ...deliveryControlRoutes(deps.events, deps.endpoints),
    ...costEstimatorRoutes(deps.catalog),
  ] as AnyRoute[];
}
