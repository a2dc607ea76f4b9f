import type { Context, Middleware } from 'koa';
import getRawBody from 'raw-body';
import { DomainError, ValidationError } from '../../../domain/errors';
import { mayHoldInexactNumbers, parseExact } from '../../../domain/webhooks/exact-json';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../json-nesting';

export const MAX_BODY_BYTES = 1024 * 1024;

/** Each JSON body's text, for a route that reads a member of it again (exactBodyMember). */
const rawBodies = new WeakMap<object, string>();

/**
 * A member of the JSON body (`parsed`, as JSON.parse read it) with its numbers as sent (exact-json.ts): read again from
 * the body's text only when JSON.parse may have changed a number of it, and only when `parsed` is within `maxBytes`
 * serialized (reading the digits costs many times what JSON.parse does; a member over its limit is refused as it is).
 */
export function exactBodyMember<T>(ctx: Context, member: string, parsed: T, maxBytes: number): T {
  const raw = rawBodies.get(ctx.request);
  if (parsed === undefined || parsed === null || raw === undefined || !mayHoldInexactNumbers(raw)) return parsed;
  if (Buffer.byteLength(JSON.stringify(parsed), 'utf8') > maxBytes) return parsed;
  return (parseExact(raw) as Record<string, T>)[member];
}

const JSON_TYPE = /^application\/(.+\+)?json\b/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded\b/i;
const SEND_JSON = 'send JSON with the header Content-Type: application/json';

/** Fails on bytes that are not UTF-8, where a lenient decoder would put U+FFFD in their place; drops a byte order mark. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** JSON is UTF-8 (RFC 8259 §8.1): a body that is not is refused, not stored with some of its characters replaced. */
function utf8(bytes: Buffer, code: 'invalid_body' | 'invalid_json'): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new ValidationError('Request body is not valid UTF-8.', [], code);
  }
}

/** The media type of a header value, without parameters, cut short for quoting in an error. */
const mediaType = (header: string) => header.split(';')[0].trim().slice(0, 100);

/** Methods whose body is read: a DELETE's too, so that one with a body that is not JSON, or with fields, is refused as any. */
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Reads bodies itself so the errors are ours. The API takes JSON only: a body labelled with another type is
 * refused (400 when it is not JSON either, as the contract says of a body that is not JSON; 415 when it is JSON
 * under the wrong label) rather than read as something it did not say it was. An unlabelled body is read as JSON.
 * No content coding is decoded: one announced is a 415, not bytes misread. Only `acceptsForms` paths (the
 * dashboard's own HTML forms) parse forms. The body of a request nothing `answers` is not read: its 404 or 405 comes
 * first, not an error about a body no route would have read.
 */
export function jsonBody(options: { acceptsForms: (path: string) => boolean; answers: (ctx: Context) => boolean }): Middleware {
  return async (ctx, next) => {
    if (!WITH_BODY.has(ctx.method) || !options.answers(ctx)) return next();
    const forms = options.acceptsForms(ctx.path);
    try {
      await readBody(ctx, forms);
    } catch (err) {
      // The dashboard answers with pages: its own error handler meets the refusal (bodyRefusalOf), not the API's.
      if (!forms) throw err;
      bodyRefusals.set(ctx.request, err);
    }
    await next();
  };
}

/** Why the body of a form path could not be read, for that path's own error handling to throw; undefined when it was read. */
export const bodyRefusalOf = (ctx: Context): unknown => bodyRefusals.get(ctx.request);
const bodyRefusals = new WeakMap<object, unknown>();

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
    throw new ValidationError('Request body could not be read.', [], 'invalid_body');
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
    throw new ValidationError('Request body must be JSON (Content-Type: application/json).', [], 'invalid_json');
  } else {
    if (exceedsJsonDepth(raw)) {
      throw new ValidationError(`Request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep.`, [], 'json_too_deep');
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      const hint = labelledOther ? ` It was sent as ${mediaType(type)}; ${SEND_JSON}.` : '';
      throw new ValidationError(`Request body is not valid JSON.${hint}`, [], 'invalid_json');
    }
    if (labelledOther) {
      throw new DomainError('unsupported_media_type', `Request body was sent as ${mediaType(type)}, which this API does not read; ${SEND_JSON}.`);
    }
    ctx.request.body = body;
    rawBodies.set(ctx.request, raw);
  }
}
