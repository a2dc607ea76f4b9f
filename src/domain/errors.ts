/**
 * Typed domain errors. Domain and persistence code throw these; one HTTP middleware
 * (src/transport/http/middleware/error-handler.ts) maps them to status + JSON body.
 * Nothing outside that middleware decides an error's status code.
 */

export interface ErrorDetail {
  path: string;
  message: string;
}

export abstract class DomainError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
  /** Extra top-level fields of the JSON error body (e.g. retry_after, allowed). */
  readonly extra: Record<string, unknown>;
  /** Extra response headers (e.g. Retry-After). */
  readonly headers: Record<string, string>;

  constructor(message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(message);
    this.name = new.target.name;
    this.extra = extra;
    this.headers = headers;
  }
}

/** 400: the request body, query or path parameters are not of the documented shape. */
export class ValidationError extends DomainError {
  readonly status = 400;
  readonly code: string;
  constructor(message: string, details: ErrorDetail[] = [], code = 'invalid_request', extra: Record<string, unknown> = {}) {
    super(message, details.length > 0 ? { details, ...extra } : extra);
    this.code = code;
  }
}

/** 401: missing, malformed, unknown or revoked credentials. */
export class UnauthorizedError extends DomainError {
  readonly status = 401;
  readonly code: string;
  constructor(message = 'Missing or invalid API key.', code = 'unauthorized') {
    super(message);
    this.code = code;
  }
}

/** 403: valid credentials that do not grant this resource. */
export class ForbiddenError extends DomainError {
  readonly status = 403;
  readonly code: string;
  constructor(message: string, code = 'forbidden') {
    super(message);
    this.code = code;
  }
}

/** 404: the resource does not exist or belongs to another account. */
export class NotFoundError extends DomainError {
  readonly status = 404;
  readonly code = 'not_found';
}

export class MethodNotAllowedError extends DomainError {
  readonly status = 405;
  readonly code = 'method_not_allowed';
  constructor(message: string, allowed: string[]) {
    super(message, {}, { Allow: allowed.join(', ') });
  }
}

/** 409: the request conflicts with the resource's current state. */
export class ConflictError extends DomainError {
  readonly status = 409;
  readonly code: string;
  constructor(message: string, code = 'conflict') {
    super(message);
    this.code = code;
  }
}

/** 413: the body (or a part of it with its own limit) is too large. */
export class PayloadTooLargeError extends DomainError {
  readonly status = 413;
  readonly code = 'payload_too_large';
}

/** 422: well-formed JSON that cannot be processed (e.g. a refused destination URL). */
export class UnprocessableError extends DomainError {
  readonly status = 422;
  readonly code: string;
  constructor(message: string, code = 'unprocessable_entity', extra: Record<string, unknown> = {}) {
    super(message, extra);
    this.code = code;
  }
}

/** 429 for the per-minute burst window. */
export class BurstLimitError extends DomainError {
  readonly status = 429;
  readonly code = 'rate_limit_exceeded';
  constructor(retryAfterSeconds: number) {
    super(
      'Rate limit exceeded: too many requests in the current 60-second window.',
      { retry_after: retryAfterSeconds, remaining: 0 },
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}

/** 429 for the monthly quota. */
export class QuotaExceededError extends DomainError {
  readonly status = 429;
  readonly code = 'quota_exceeded';
  constructor(quotaLimit: number, quotaUsed: number, resetAt: Date, retryAfterSeconds: number) {
    super(
      'Monthly quota exceeded for this billing period.',
      { quota_limit: quotaLimit, quota_used: quotaUsed, reset_at: resetAt.toISOString() },
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}

/** 503: a dependency (database, Temporal) is unreachable. Safe to retry. */
export class ServiceUnavailableError extends DomainError {
  readonly status = 503;
  readonly code = 'service_unavailable';
}

/** 503: this API process has more accepted events waiting for their workflows than it may hold. */
export class OverloadedError extends DomainError {
  readonly status = 503;
  readonly code = 'overloaded';
  constructor(retryAfterSeconds: number) {
    super(
      'The platform is saturated: too many accepted events are waiting to be handed to delivery. Nothing was stored; retry after the given time with the same idempotency key.',
      { retry_after: retryAfterSeconds },
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}
