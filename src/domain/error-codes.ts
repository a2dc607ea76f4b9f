/** Clients switch on `code`: add a code here with its meaning or do not throw it. Status: error-status.ts. */
export const ERROR_CATALOGUE = {
  // The request is not of the documented shape.
  invalid_request: 'The body, query or path parameters are not of the documented shape; `details` says where.',
  invalid_body: 'The request body could not be read.',
  invalid_json: 'The request body is not JSON (Content-Type: application/json), or not valid JSON, or not UTF-8.',
  json_too_deep: 'The JSON body nests objects and arrays deeper than the documented limit.',
  invalid_url: 'The endpoint url is not a string, not an absolute URL, longer than 2,048 characters, or with port 0.',
  invalid_cursor: 'The `cursor` query parameter is not one this API handed out.',
  invalid_event_id: 'The event id in the path is not a positive integer.',
  invalid_since: 'Bulk recovery: `since` is in the future or more than 7 days ago (or, in the dashboard\'s form, not a date and time; the API answers a body that is not one with `invalid_request`).',
  sign_up_refused: 'Dashboard sign-up could not go through (it does not say whether the email is taken).',
  // Who is calling.
  invalid_api_key: 'The API key is missing, malformed, sent the wrong way, or unknown.',
  revoked_api_key: 'The API key has been revoked.',
  invalid_portal_token: 'The portal session token is unknown, expired or revoked.',
  invalid_credentials: 'Dashboard sign-in: unknown email or wrong password.',
  wrong_product: 'The API key belongs to another product; `error` names the product it is not authorized for.',
  portal_read_only: 'The portal session is read-only: it may not change anything.',
  portal_not_allowed: "A portal session may call only the endpoint and event paths, for its own tenant's records, and read the event types and the portal settings.",
  csrf_failed: 'A dashboard form did not come from this site, or has expired. Nothing was changed.',
  // What is asked for.
  not_found: 'Unknown path, or a resource that does not exist or belongs to another account.',
  method_not_allowed: 'The path exists but not with this method; the `Allow` header lists the methods it has.',
  invite_unknown: 'The dashboard invite link is not valid.',
  invite_used: 'The dashboard invite link has already been used.',
  invite_expired: 'The dashboard invite link has expired.',
  // The current state does not allow it.
  delivery_in_flight: 'A delivery round to this endpoint is already in flight, or another retry is starting it (a round left unstarted by a crash can be retried a minute after it was claimed).',
  delivery_not_retryable: 'The delivery succeeded; only failed or cancelled deliveries can be retried.',
  delivery_round_limit: 'The delivery has been retried as many times as it may be.',
  delivery_not_waiting: 'Retry now: the delivery is not waiting for its next attempt (it has ended, or an attempt is in flight).',
  delivery_ended: 'Cancel: the delivery has already ended (succeeded, failed or cancelled), or no round of it is running.',
  endpoint_deleted: 'The endpoint was deleted; its deliveries cannot be retried.',
  endpoint_disabled: 'The endpoint is disabled; enable it before retrying or recovering its deliveries.',
  endpoint_tenant_changed: 'The endpoint now belongs to another tenant than the event (or to none); its delivery of the event cannot be retried.',
  email_taken: 'An account with this email already exists.',
  event_type_exists: 'The account\'s event-type catalog already has a type of this name; change it with PATCH.',
  event_type_changed: 'PATCH of an event type: the schema or example it was checked against was changed by another call meanwhile. Nothing was changed; read the type and repeat the PATCH.',
  // Well-formed, but cannot be processed.
  payload_too_large: 'The body is over 1 MiB, or the event data over 256 KiB when serialized.',
  headers_too_large: 'The request line and headers together are over 16 KiB (a path or query string too long, or too many cookies).',
  request_timeout: 'The request\'s headers did not arrive within 60 s, or the whole request within 300 s.',
  unsupported_media_type: 'The JSON body was labelled with another `Content-Type` (send `Content-Type: application/json`), or sent with a `Content-Encoding` (send it uncompressed).',
  reserved_event_type: 'Ingest: the event type starts with `platform.`, which only the platform emits (operational events).',
  unsupported_url_scheme: 'The endpoint url does not use the https scheme.',
  url_credentials_not_allowed: 'The endpoint url carries a user name or password.',
  destination_not_allowed: 'The endpoint url host, or a broker destination\'s host, is or resolves to a refused (private, loopback, ...) address.',
  invalid_destination: 'A broker `destination` breaks a rule beyond its shape (plaintext off private networks, credentials missing or in a URI, a malformed address); `details` says where.',
  dns_timeout: 'The endpoint url host could not be checked: its DNS lookup did not finish in time.',
  endpoint_limit_reached: 'The account already has the most endpoints it may have.',
  event_type_limit_reached: 'The account\'s event-type catalog already holds the most types it may; delete one first.',
  invalid_schema: 'The event type\'s `schema` is not a valid JSON Schema (draft 2020-12); `details` says where.',
  invalid_example: 'The event type\'s `example` does not match its `schema`; `details` names the failing paths.',
  schema_mismatch: 'Ingest: the event\'s `data` does not match the schema of its type in the account\'s catalog; `details` names the failing paths. Nothing was stored.',
  tenant_endpoint_limit_reached: 'The tenant already has the most endpoints a tenant may have.',
  tenant_limit_reached: 'The account already has the most tenants it may have (a tenant exists while it has an endpoint).',
  key_limit_reached: 'The account already has the most live (unrevoked) API keys it may have; revoke one first.',
  unknown_service: 'Cost estimator: no catalog entry for this provider and service (`index` names the item).',
  instance_required: 'Cost estimator: the service has several instances; `instances` lists them.',
  unknown_instance: 'Cost estimator: no catalog entry for this instance (`instances` lists the known ones).',
  estimate_out_of_range: 'Cost estimator: an item or the total costs more than the largest amount an estimate reports.',
  // Limits: wait `Retry-After` seconds.
  rate_limit_exceeded: 'The per-minute burst limit is used up; `retry_after` and `Retry-After` say when the window ends.',
  quota_exceeded: 'The monthly quota is used up; `reset_at` is the next billing period start.',
  too_many_attempts: 'Too many failed dashboard sign-ins or sign-ups for this email or address; see `Retry-After`.',
  // Our side.
  internal_error: 'Internal error; safe to retry with backoff. `request_id` identifies it in the logs.',
  service_unavailable: 'A dependency (database, Temporal) is unreachable; safe to retry. An ingest answered this may have stored its event: repeated with the same idempotency key it gets 200 with that event, or 202 with a new one when the first was not kept; the event that answers the key is delivered once.',
  overloaded: "The platform is at capacity and this account takes more than its share of it (accounts that ask for less than an equal share are not refused); nothing was stored. Retry after `Retry-After` with the same idempotency key.",
} as const satisfies Record<string, string>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** Every code, in catalogue order (the OpenAPI enum). */
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as [ErrorCode, ...ErrorCode[]];
