export { PlatformClient } from './client.js';
export type {
  ClientOptions,
  CreatedEndpoint,
  Delivery,
  DeliveryStatus,
  Destination,
  Endpoint,
  EndpointChange,
  EventStatus,
  EventSummary,
  EventType,
  EventTypeChange,
  EventWithDeliveries,
  ListEndpointsQuery,
  ListEventsQuery,
  NewDestination,
  NewEndpoint,
  NewEventType,
  NewPortalSession,
  PortalSession,
  Recovery,
  SentEvent,
  Tenant,
} from './client.js';
export { ERROR_CODES, PlatformError } from './errors.js';
export type { ErrorBody, ErrorCode } from './errors.js';
export { DEFAULT_MAX_RETRIES, MAX_JITTER_MS, retryDelayMs } from './retry.js';
export type { components, paths } from './generated/openapi.js';
