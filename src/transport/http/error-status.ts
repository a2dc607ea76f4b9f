import type { ErrorCode } from '../../domain/error-codes';
import type { DomainError } from '../../domain/errors';

/** The one table from error code to HTTP status, typed over every code: a code without a status does not compile. */
export const HTTP_STATUS: { readonly [C in ErrorCode]: number } = {
  invalid_request: 400,
  invalid_body: 400,
  invalid_json: 400,
  json_too_deep: 400,
  invalid_url: 400,
  invalid_cursor: 400,
  invalid_event_id: 400,
  invalid_since: 400,
  sign_up_refused: 400,
  invalid_api_key: 401,
  revoked_api_key: 401,
  invalid_portal_token: 401,
  invalid_credentials: 401,
  wrong_product: 403,
  csrf_failed: 403,
  portal_read_only: 403,
  portal_not_allowed: 403,
  not_found: 404,
  invite_unknown: 404,
  method_not_allowed: 405,
  delivery_in_flight: 409,
  delivery_not_retryable: 409,
  delivery_round_limit: 409,
  delivery_not_waiting: 409,
  delivery_ended: 409,
  endpoint_deleted: 409,
  endpoint_disabled: 409,
  endpoint_tenant_changed: 409,
  email_taken: 409,
  event_type_exists: 409,
  event_type_changed: 409,
  invite_used: 410,
  invite_expired: 410,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  reserved_event_type: 422,
  unsupported_url_scheme: 422,
  url_credentials_not_allowed: 422,
  destination_not_allowed: 422,
  invalid_destination: 422,
  dns_timeout: 422,
  endpoint_limit_reached: 422,
  event_type_limit_reached: 422,
  invalid_schema: 422,
  invalid_example: 422,
  schema_mismatch: 422,
  tenant_endpoint_limit_reached: 422,
  tenant_limit_reached: 422,
  key_limit_reached: 422,
  unknown_service: 422,
  instance_required: 422,
  unknown_instance: 422,
  estimate_out_of_range: 422,
  rate_limit_exceeded: 429,
  quota_exceeded: 429,
  too_many_attempts: 429,
  internal_error: 500,
  service_unavailable: 503,
  overloaded: 503,
};

export function httpStatusOf(err: DomainError): number {
  return HTTP_STATUS[err.code];
}

/** The headers an error's hints become: Retry-After (429, 503 overloaded) and Allow (405). */
export function httpHeadersOf(err: DomainError): Record<string, string> {
  const headers: Record<string, string> = {};
  if (err.retryAfterSeconds !== undefined) headers['Retry-After'] = String(err.retryAfterSeconds);
  if (err.allowedMethods !== undefined) headers.Allow = err.allowedMethods.join(', ');
  return headers;
}
