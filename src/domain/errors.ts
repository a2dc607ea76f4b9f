import type { ErrorCode } from './error-codes';

/** Domain errors: a catalogue code, a sentence for people, data. No HTTP: see middleware/error-handler.ts. */

export interface ErrorDetail {
  path: string;
  message: string;
}

export class DomainError<C extends ErrorCode = ErrorCode> extends Error {
  readonly retryAfterSeconds: number | undefined;
  readonly allowedMethods: readonly string[] | undefined;

  /** `data`: extra top-level fields of the JSON error body; `hints`: what transport turns into headers (Retry-After, Allow). */
  constructor(
    readonly code: C,
    message: string,
    readonly data: Readonly<Record<string, unknown>> = {},
    hints: { retryAfterSeconds?: number; allowedMethods?: readonly string[] } = {},
  ) {
    // An answer, not a fault: its stack is never read, and under a flood one per 503 takes a measurable share of the API's CPU.
    const depth = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = depth;
    this.name = 'DomainError';
    this.retryAfterSeconds = hints.retryAfterSeconds;
    this.allowedMethods = hints.allowedMethods;
  }
}

/** The request is not of the documented shape; `details` says what is wrong where (an API 400 has at least one, CONTRACT §2). */
export class ValidationError extends DomainError {
  constructor(message: string, details: ErrorDetail[] = [], code: ErrorCode = 'invalid_request', data: Record<string, unknown> = {}) {
    super(code, message, details.length > 0 ? { details, ...data } : data);
    this.name = 'ValidationError';
  }
}

export function isDomainError<C extends ErrorCode>(err: unknown, ...codes: C[]): err is DomainError<C> {
  return err instanceof DomainError && (codes.length === 0 || (codes as ErrorCode[]).includes(err.code));
}

export function methodNotAllowed(message: string, allowed: readonly string[]): DomainError<'method_not_allowed'> {
  return new DomainError('method_not_allowed', message, {}, { allowedMethods: allowed });
}

export function burstLimitExceeded(retryAfterSeconds: number): DomainError<'rate_limit_exceeded'> {
  return new DomainError(
    'rate_limit_exceeded',
    'Rate limit exceeded: too many requests in the current 60-second window.',
    { retry_after: retryAfterSeconds, remaining: 0 },
    { retryAfterSeconds },
  );
}

export function quotaExceeded(quotaLimit: number, quotaUsed: number, resetAt: Date, retryAfterSeconds: number): DomainError<'quota_exceeded'> {
  return new DomainError(
    'quota_exceeded',
    'Monthly quota exceeded for this billing period.',
    { quota_limit: quotaLimit, quota_used: quotaUsed, reset_at: resetAt.toISOString() },
    { retryAfterSeconds },
  );
}

export type LimitExceededError = DomainError<'rate_limit_exceeded' | 'quota_exceeded'>;

/** The platform is short of delivery capacity and this account takes more than its share of it (ingest-admission.ts). */
export function overloaded(retryAfterSeconds: number): DomainError<'overloaded'> {
  return new DomainError(
    'overloaded',
    "The platform is at capacity and this account is over its share of it: the account's accepted events would wait longer than the platform promises. Nothing was stored; retry after the given time with the same idempotency key.",
    { retry_after: retryAfterSeconds },
    { retryAfterSeconds },
  );
}
