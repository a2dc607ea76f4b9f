import type { ResponseConfig, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ERROR_CATALOGUE, ERROR_CODES } from '../../domain/error-codes';
import { HTTP_STATUS } from './error-status';
import { MAX_JSON_DEPTH } from './json-nesting';

function errorCodeTable(): string {
  const rows = ERROR_CODES.map((code) => `| \`${code}\` | ${HTTP_STATUS[code]} | ${ERROR_CATALOGUE[code]} |`);
  return ['| code | status | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

/** `code`: the closed catalogue (src/domain/error-codes.ts); clients switch on it. */
const ErrorCodeSchema = z
  .enum(ERROR_CODES)
  .describe(`Machine-readable code, one of a closed set:\n\n${errorCodeTable()}`)
  .meta({ id: 'ErrorCode' });

/** The one error format (CONTRACT §2), as documented. */
export const ErrorBody = z.object({
  error: z.string(),
  code: ErrorCodeSchema,
  details: z.array(z.object({ path: z.string(), message: z.string() }).meta({ id: 'ErrorDetail' })).optional().describe('Every 400, and the 422s `invalid_schema`, `invalid_example` and `schema_mismatch`: what is wrong where (`path` `""`: the body as a whole, e.g. not valid JSON).'),
  retry_after: z.number().int().optional().describe('429 burst and 503 overloaded: seconds to wait before retrying.'),
  remaining: z.number().int().optional().describe('429 burst only (0).'),
  quota_limit: z.number().int().optional().describe('429 quota only.'),
  quota_used: z.number().int().optional().describe('429 quota only.'),
  reset_at: z.string().optional().describe('429 quota only: the next billing period start.'),
  request_id: z.string().optional().describe('500 only.'),
}).meta({ id: 'Error' });

const DESCRIPTIONS: Record<number, string> = {
  400: `Invalid body or parameters (\`details\` says where), or a JSON body nesting objects/arrays more than ${MAX_JSON_DEPTH} levels deep (\`json_too_deep\`).`,
  401: 'Missing, malformed, unknown or revoked key.',
  403: 'The key belongs to another product.',
  404: 'Not found, or owned by another account.',
  409: 'Conflicts with the current state.',
  413: 'Body over 1 MiB (or event data over 256 KiB).',
  415: 'A JSON body labelled with a `Content-Type` other than `application/json`, or sent with a `Content-Encoding` (`unsupported_media_type`): send JSON, uncompressed, with `Content-Type: application/json`.',
  422: 'Valid JSON that cannot be processed.',
  429: 'Burst limit or monthly quota exceeded; see Retry-After.',
  500: 'Internal error; safe to retry with backoff.',
  503: 'This API process is stopping (`service_unavailable`, nothing was done), or at capacity, and this account over its share of it (`overloaded`: its own accepted events would wait past MAX_BACKLOG_S for their turn to be handed to delivery, or the API process is out of CPU, at its adaptive limit of ingests in flight, or holds INGEST_BACKLOG_LIMIT events while this account takes at least an equal share of what it accepts): nothing was stored. Or a dependency is unreachable (`service_unavailable`): an ingest\'s event may have been stored, and is then delivered and answers the repeat. Either way, retry after Retry-After (1 s for a dependency; 1–30 s for `overloaded`, the longer the more calls are refused; doubled per try) with the same idempotency key.',
};

const LIMIT_HEADERS = {
  'X-RateLimit-Limit': { description: 'Per-minute burst limit of the tier.', schema: { type: 'integer' as const } },
  'X-RateLimit-Remaining': { description: 'Calls left in the current 60-second window (this call included): the limit minus this call\'s position in the window. Exact with one API process; with several, each hands out calls of blocks it claimed, so the figure can differ from the true count by the calls other processes hold unused. Admission itself is always exact.', schema: { type: 'integer' as const } },
  'X-RateLimit-Reset': { description: 'Unix seconds when the window ends.', schema: { type: 'integer' as const } },
  'X-Quota-Used': { description: 'Calls counted in the billing period (this call included): this call\'s position in the period, with the same precision as X-RateLimit-Remaining. Anonymous estimator calls have no usage records: for them, the calls of the current window.', schema: { type: 'integer' as const } },
  'X-Quota-Limit': { description: 'Calls allowed in the period, or `unlimited`.', schema: { type: 'string' as const } },
};

export function json(description: string, schema: z.ZodType, example?: unknown): ResponseConfig {
  return { description, content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } } };
}

const RETRY_AFTER = { 'Retry-After': { description: 'Whole seconds to wait before retrying (at least 1).', schema: { type: 'integer' as const } } };

/** Every response but 401 carries the limit headers: the call was metered (anonymously or for the key's account); a 429 or 503 says when to retry. */
export function withLimitHeaders(responses: RouteConfig['responses']): RouteConfig['responses'] {
  for (const [status, response] of Object.entries(responses)) {
    if (status !== '401') (response as { headers?: unknown }).headers = status === '429' || status === '503' ? { ...LIMIT_HEADERS, ...RETRY_AFTER } : LIMIT_HEADERS;
  }
  return responses;
}

/** Responses of a metered key-scoped operation: success plus the shared error cases (any call may meet a stopping process or an unreachable store: 503). */
export function keyScopedResponses(success: RouteConfig['responses'], ...extraErrors: number[]): RouteConfig['responses'] {
  const errors = [401, 403, 429, 500, 503, ...extraErrors].map((s) => [s, json(DESCRIPTIONS[s] ?? 'Error', ErrorBody)]);
  return withLimitHeaders({ ...success, ...Object.fromEntries(errors) });
}

/**
 * An operation whose body is read (middleware/json-body.ts: any but a GET) also answers 400 for a body that is not JSON,
 * 413 for one over 1 MiB and 415 for one labelled otherwise, with the headers of its other errors (all metered alike).
 */
export function withBodyErrors(responses: RouteConfig['responses']): RouteConfig['responses'] {
  const metered = Object.entries(responses).find(([status]) => status !== '401' && Number(status) >= 400)?.[1] as ResponseConfig | undefined;
  const error = (status: number) => responses[status] ?? { ...json(DESCRIPTIONS[status], ErrorBody), ...(metered?.headers ? { headers: metered.headers } : {}) };
  return { ...responses, 400: error(400), 413: error(413), 415: error(415) };
}

export const BEARER = [{ bearerKey: [] }];
