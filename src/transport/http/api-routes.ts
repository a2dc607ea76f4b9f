import type { Catalog } from '../../domain/cost-estimator';
import type { EndpointService } from '../../services/endpoint-service';
import type { EventService } from '../../services/event-service';
import type { EventTypeService } from '../../services/event-type-service';
import type { AnyRoute } from './app';
import { costEstimatorRoutes } from './routes/cost-estimator';
import { deliveryControlRoutes } from './routes/webhooks/delivery-control';
import { docsRoutes } from './routes/docs';
import { HealthChecks, healthz, readyz } from './routes/health';
import { endpointRoutes } from './routes/webhooks/endpoints';
import { eventRoutes } from './routes/webhooks/events';
import { eventTypeRoutes } from './routes/webhooks/event-types';

export interface ApiRouteDeps {
  health: HealthChecks;
  getDocument: () => object;
  endpoints: EndpointService;
  events: EventService;
  eventTypes: EventTypeService;
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
    ...deliveryControlRoutes(deps.events, deps.endpoints),
    ...costEstimatorRoutes(deps.catalog),
  ] as AnyRoute[];
}
