import type { Catalog } from '../../domain/cost-estimator';
import type { EndpointService } from '../../services/endpoint-service';
import type { EventService } from '../../services/event-service';
import type { AnyRoute } from './app';
import { costEstimatorRoutes } from './routes/cost-estimator';
import { deliveryControlRoutes } from './routes/webhooks/delivery-control';
import { docsPage, openApiRoute } from './routes/docs';
import { HealthChecks, healthz, readyz } from './routes/health';
import { endpointPauseRoutes } from './routes/webhooks/endpoint-pause';
import { endpointRoutes } from './routes/webhooks/endpoints';
import { eventRoutes } from './routes/webhooks/events';
import { recoveryRoutes } from './routes/webhooks/recovery';

export interface ApiRouteDeps {
  health: HealthChecks;
  getDocument: () => object;
  endpoints: EndpointService;
  events: EventService;
  catalog: Catalog;
}

/** Every route of the API, in one list: what the server mounts and what the OpenAPI document describes. */
export function apiRoutes(deps: ApiRouteDeps): AnyRoute[] {
  return [
    healthz,
    readyz(deps.health),
    openApiRoute(deps.getDocument),
    docsPage(deps.getDocument),
    ...endpointRoutes(deps.endpoints),
    ...recoveryRoutes(deps.events),
    ...eventRoutes(deps.events),
    ...deliveryControlRoutes(deps.events),
    ...endpointPauseRoutes(deps.endpoints),
    ...costEstimatorRoutes(deps.catalog),
  ] as AnyRoute[];
}
