import { errorCodeValues, type components } from './generated/openapi.js';
import { retryAfterSeconds } from './retry.js';

/** The platform's closed set of error codes, as the OpenAPI document lists them. */
export type ErrorCode = components['schemas']['ErrorCode'];
export const ERROR_CODES: ReadonlyArray<ErrorCode> = errorCodeValues;

/** An error answer's body (`{ error, code, ... }`); every operation documents the same one. */
export type ErrorBody = components['schemas']['Error'];

/**
 * An answer of the platform other than 2xx. `code` is one of the closed set; it is undefined only
 * when the answer did not come from the platform's API (a proxy's HTML page, say): `body` then holds its text.
 */
export class PlatformError extends Error {
  override readonly name = 'PlatformError';
  readonly status: number;
  readonly code: ErrorCode | undefined;
  /** The X-Request-Id of the answer (or the body's `request_id`): quote it when asking for help. */
  readonly requestId: string | undefined;
  /** Seconds the platform asked to wait (429, 503), when it said. */
  readonly retryAfterSeconds: number | undefined;
  readonly body: unknown;

  constructor(status: number, body: unknown, headers: Headers) {
    const platform = isErrorBody(body) ? body : undefined;
    super(platform?.error ?? `HTTP ${status}`);
    this.status = status;
    this.code = platform?.code;
    this.body = body;
    this.requestId = headers.get('x-request-id') ?? platform?.request_id;
    this.retryAfterSeconds = retryAfterSeconds(headers.get('retry-after'), platform?.retry_after);
  }

  /** Whether the platform's advice is to retry it: the burst limit (429) and 503. A spent monthly quota is not retried: it lasts until the next period. */
  get retryable(): boolean {
    return (this.status === 429 && this.code !== 'quota_exceeded') || this.status === 503;
  }
}

function isErrorBody(body: unknown): body is ErrorBody {
  return typeof body === 'object' && body !== null && typeof (body as ErrorBody).error === 'string' && typeof (body as ErrorBody).code === 'string';
}
