import Koa from 'koa';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import pino from 'pino';
import { ERROR_CATALOGUE, ERROR_CODES, type ErrorCode } from '../../../src/domain/error-codes';
import { burstLimitExceeded, DomainError, methodNotAllowed, overloaded, quotaExceeded, ValidationError } from '../../../src/domain/errors';
import { HTTP_STATUS } from '../../../src/transport/http/error-status';
import { errorHandler } from '../../../src/transport/http/middleware/error-handler';
import { documentOf } from '../../../src/transport/http/openapi';
import { keyScopedResponses } from '../../../src/transport/http/responses';
import { defineRoute } from '../../../src/transport/http/route';

/** What a client of the API may rely on: each code's status (CONTRACT §2 and the spec's error table). */
const EXPECTED_STATUS: Record<number, ErrorCode[]> = {
  400: ['invalid_request', 'invalid_body', 'invalid_json', 'json_too_deep', 'invalid_url', 'invalid_cursor', 'invalid_event_id', 'invalid_since', 'sign_up_refused'],
  401: ['invalid_api_key', 'revoked_api_key', 'invalid_portal_token', 'invalid_credentials'],
  403: ['wrong_product', 'portal_read_only', 'portal_not_allowed', 'csrf_failed'],
  404: ['not_found', 'invite_unknown'],
  405: ['method_not_allowed'],
  409: ['delivery_in_flight', 'delivery_not_retryable', 'delivery_round_limit', 'delivery_not_waiting', 'delivery_ended', 'endpoint_deleted', 'endpoint_disabled', 'endpoint_tenant_changed', 'email_taken', 'event_type_exists', 'event_type_changed'],
  410: ['invite_used', 'invite_expired'],
  408: ['request_timeout'],
  413: ['payload_too_large'],
  415: ['unsupported_media_type'],
  431: ['headers_too_large'],
  422: [
    'reserved_event_type',
    'unsupported_url_scheme',
    'url_credentials_not_allowed',
    'destination_not_allowed',
    'invalid_destination',
    'dns_timeout',
    'endpoint_limit_reached',
    'event_type_limit_reached',
    'invalid_schema',
    'invalid_example',
    'schema_mismatch',
    'tenant_endpoint_limit_reached',
    'tenant_limit_reached',
    'key_limit_reached',
    'unknown_service',
    'instance_required',
    'unknown_instance',
    'estimate_out_of_range',
  ],
  429: ['rate_limit_exceeded', 'quota_exceeded', 'too_many_attempts'],
  500: ['internal_error'],
  503: ['service_unavailable', 'overloaded'],
};
const EXPECTED = Object.entries(EXPECTED_STATUS).flatMap(([status, codes]) => codes.map((code) => [code, Number(status)] as const));

/** Runs the one error middleware over a handler that throws `err`; returns what the client gets. */
async function answer(err: unknown) {
  const req = new IncomingMessage(new Socket());
  req.url = '/';
  const ctx = new Koa().createContext(req, new ServerResponse(req));
  ctx.state.requestId = 'req_test';
  await errorHandler(pino({ level: 'silent' }))(ctx, async () => Promise.reject(err));
  const headers = Object.fromEntries(['Retry-After', 'Allow'].flatMap((name) => (ctx.response.get(name) ? [[name, ctx.response.get(name)]] : [])));
  return { status: ctx.status, body: ctx.body as Record<string, unknown>, headers };
}

describe('error catalogue', () => {
  it('is closed: every code has exactly one status, and no status table entry names an unknown code', () => {
    expect(Object.keys(HTTP_STATUS).sort()).toEqual([...ERROR_CODES].sort());
    expect(EXPECTED.map(([code]) => code).sort()).toEqual([...ERROR_CODES].sort());
  });

  it('refuses, at compile time, a code that is not in it', () => {
    // @ts-expect-error 'made_up' is not an ErrorCode: `npm run typecheck` fails if this line compiles.
    expect(new DomainError('made_up', 'x').code).toBe('made_up');
  });

  it('gives every code a meaning', () => {
    for (const code of ERROR_CODES) expect(ERROR_CATALOGUE[code].length).toBeGreaterThan(10);
  });

  it('is what the OpenAPI document lists as the enum of `code`, with each code, its status and meaning', () => {
    const route = defineRoute({ method: 'get', path: '/x', summary: 'x', tags: [], responses: keyScopedResponses({}, 400), handler: () => undefined });
    const document = documentOf([route as never]) as any;
    expect(document.paths['/x'].get.responses['400'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(document.components.schemas.Error.properties.code).toEqual({ $ref: '#/components/schemas/ErrorCode' });
    const schema = document.components.schemas.ErrorCode;
    expect(schema.enum).toEqual([...ERROR_CODES]);
    for (const code of ERROR_CODES) expect(schema.description).toContain(`| \`${code}\` | ${HTTP_STATUS[code]} | ${ERROR_CATALOGUE[code]} |`);
  });
});

describe('error middleware: code to HTTP', () => {
  it.each(EXPECTED)('%s is a %i with {"error","code"}', async (code, status) => {
    const res = await answer(new DomainError(code, 'A sentence.'));
    expect(res.status).toBe(status);
    // (invalid_api_key adds how to send a key.)
    expect(res.body).toEqual({ error: expect.stringMatching(/^A sentence\./), code });
  });

  it('a validation error adds details', async () => {
    const res = await answer(new ValidationError('Bad.', [{ path: 'url', message: 'Required' }]));
    expect(res).toEqual({ status: 400, body: { error: 'Bad.', code: 'invalid_request', details: [{ path: 'url', message: 'Required' }] }, headers: {} });
  });

  it('429 burst: retry_after and remaining in the body, Retry-After header', async () => {
    const res = await answer(burstLimitExceeded(42));
    expect(res).toEqual({ status: 429, body: { error: expect.any(String), code: 'rate_limit_exceeded', retry_after: 42, remaining: 0 }, headers: { 'Retry-After': '42' } });
  });

  it('429 quota: quota_limit, quota_used and reset_at in the body, Retry-After header', async () => {
    const res = await answer(quotaExceeded(500, 500, new Date('2031-06-01T00:00:00.000Z'), 3600));
    expect(res).toEqual({
      status: 429,
      body: { error: expect.any(String), code: 'quota_exceeded', quota_limit: 500, quota_used: 500, reset_at: '2031-06-01T00:00:00.000Z' },
      headers: { 'Retry-After': '3600' },
    });
  });

  it('503 overloaded: retry_after in the body, Retry-After header', async () => {
    const res = await answer(overloaded(1));
    expect(res).toEqual({ status: 503, body: { error: expect.any(String), code: 'overloaded', retry_after: 1 }, headers: { 'Retry-After': '1' } });
  });

  it('405: the Allow header lists the methods the path has', async () => {
    const res = await answer(methodNotAllowed('No.', ['GET', 'POST']));
    expect(res).toEqual({ status: 405, body: { error: 'No.', code: 'method_not_allowed' }, headers: { Allow: 'GET, POST' } });
  });
});
