import type { Context, Middleware } from 'koa';
import getRawBody from 'raw-body';
import { DomainError, ValidationError } from '../../../domain/errors';
import { mayHoldInexactNumbers, parseExact } from '../../../domain/webhooks/exact-json';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../json-nesting';

const MAX_BODY_BYTES = 1024 * 1024;

/** Each JSON body's text, for a route that keeps a member's numbers as sent (withExactMember). */
const rawBodies = new WeakMap<object, string>();

/** A body member whose numbers are kept as sent; a value over `maxBytes` serialized is left as parsed (its route refuses it). */
export interface ExactMember {
  member: string;
  maxBytes?: number;
}

/**
 * The body with `exact.member` read again from the body's text with its numbers as sent (exact-json.ts), only when
 * JSON.parse may have changed a number of it, and only within `maxBytes` (reading the digits costs many times what
 * JSON.parse does, so a member over its limit, refused anyway, is not read twice).
 */
export function withExactMember<T>(ctx: Context, body: T, exact: ExactMember): T {
  const raw = rawBodies.get(ctx.request);
  if (raw === undefined || body === null || typeof body !== 'object' || !mayHoldInexactNumbers(raw)) return body;
  const parsed = (body as Record<string, unknown>)[exact.member];
  if (parsed === undefined || parsed === null) return body;
  if (exact.maxBytes !== undefined && Buffer.byteLength(JSON.stringify(parsed), 'utf8') > exact.maxBytes) return body;
  return { ...body, [exact.member]: (parseExact(raw) as Record<string, unknown>)[exact.member] };
}

const JSON_TYPE = /^application\/(.+\+)?json\b/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded\b/i;
const SEND_JSON = 'send JSON with the header Content-Type: application/json';

/** Fails on bytes that are not UTF-8, where a lenient decoder would put U+FFFD in their place; drops a byte order mark. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A refusal of the body as a whole: its detail's path is the body's root, `""`, as a schema's refusal of a body that is no object. */
function bodyRefused(problem: string, code: 'invalid_body' | 'invalid_json' | 'json_too_deep', hint = ''): ValidationError {
  return new ValidationError(`Request body ${problem}.${hint}`, [{ path: '', message: problem }], code);
}

/** JSON is UTF-8 (RFC 8259 §8.1): a body that is not is refused, not stored with some of its characters replaced. */
function utf8(bytes: Buffer, code: 'invalid_body' | 'invalid_json'): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw bodyRefused('is not valid UTF-8', code);
  }
}

/** The media type of a header value, without parameters, cut short for quoting in an error. */
const mediaType = (header: string) => header.split(';')[0].trim().slice(0, 100);

/**
 * Reads bodies itself so the errors are ours. The API takes JSON only: a body labelled with another type is
 * refused (400 when it is not JSON either, as the contract says of a body that is not JSON; 415 when it is JSON
 * under the wrong label) rather than read as something it did not say it was. An unlabelled body is read as JSON.
 * No content coding is decoded: one announced is a 415, not bytes misread. Each API route that takes a body (a
 * DELETE's too) runs this itself (route.ts), so a request no route answers is not read: its 404 or 405 comes first.
 */
export const readJsonBody: Middleware = async (ctx, next) => {
  await readBody(ctx, false);
  await next();
};

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The dashboard's: its own HTML forms as well as JSON; a refusal is thrown into the dashboard's stack, which answers with a page. */
export const readFormOrJsonBody: Middleware = async (ctx, next) => {
  if (WITH_BODY.has(ctx.method)) await readBody(ctx, true);
  await next();
};

/** Reads the body into `ctx.request.body` (forms too, on `forms` paths), or throws why it cannot. */
async function readBody(ctx: Context, forms: boolean): Promise<void> {
  const encoding = ctx.get('Content-Encoding').trim();
  if (!forms && encoding !== '' && encoding.toLowerCase() !== 'identity') {
    ctx.set('Accept-Encoding', 'identity');
    throw new DomainError(
      'unsupported_media_type',
      `Content-Encoding ${encoding.slice(0, 100)} is not supported: send the request body uncompressed, without a Content-Encoding header.`,
    );
  }
  const bytes = await getRawBody(ctx.req, { limit: MAX_BODY_BYTES, length: ctx.request.length }).catch((err: { type?: string }) => {
    if (err.type === 'entity.too.large') throw new DomainError('payload_too_large', 'Request body exceeds 1 MiB.');
    throw bodyRefused('could not be read', 'invalid_body');
  });
  const type = ctx.get('Content-Type');
  const labelledOther = type !== '' && !JSON_TYPE.test(type);
  const form = forms && FORM_TYPE.test(type);
  const raw = utf8(bytes, form ? 'invalid_body' : 'invalid_json');
  if (raw.length === 0) {
    ctx.request.body = undefined;
  } else if (form) {
    ctx.request.body = Object.fromEntries(new URLSearchParams(raw));
  } else if (forms && labelledOther) {
    throw bodyRefused('must be JSON (Content-Type: application/json)', 'invalid_json');
  } else {
    if (exceedsJsonDepth(raw)) throw bodyRefused(`nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`, 'json_too_deep');
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      const hint = labelledOther ? ` It was sent as ${mediaType(type)}; ${SEND_JSON}.` : '';
      throw bodyRefused('is not valid JSON', 'invalid_json', hint);
    }
    if (labelledOther) {
      throw new DomainError('unsupported_media_type', `Request body was sent as ${mediaType(type)}, which this API does not read; ${SEND_JSON}.`);
    }
    ctx.request.body = body;
    rawBodies.set(ctx.request, raw);
  }
}
