import type { Middleware } from 'koa';
import getRawBody from 'raw-body';
import { PayloadTooLargeError, ValidationError } from '../../../domain/errors';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../json-nesting';

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Reads and parses JSON bodies itself (instead of a generic body parser) so that the
 * errors are ours: over 1 MiB → 413, not JSON → 400, objects/arrays nested more than
 * MAX_JSON_DEPTH levels → 400 (before anything walks them recursively). The raw text is kept
 * for handlers that need exact bytes.
 */
export function jsonBody(): Middleware {
  return async (ctx, next) => {
    if (!['POST', 'PUT', 'PATCH'].includes(ctx.method)) return next();
    const declared = Number(ctx.get('Content-Length') || 0);
    if (declared > MAX_BODY_BYTES) throw new PayloadTooLargeError('Request body exceeds 1 MiB.');
    let raw: string;
    try {
      raw = await getRawBody(ctx.req, { limit: MAX_BODY_BYTES, encoding: 'utf8' });
    } catch (err) {
      if ((err as { type?: string }).type === 'entity.too.large') throw new PayloadTooLargeError('Request body exceeds 1 MiB.');
      throw new ValidationError('Request body could not be read.', [], 'invalid_body');
    }
    ctx.state.rawBody = raw;
    const type = ctx.get('Content-Type');
    if (raw.length === 0) {
      ctx.request.body = undefined;
    } else if (type && !/^application\/(.+\+)?json\b/i.test(type) && !/^application\/x-www-form-urlencoded\b/i.test(type)) {
      throw new ValidationError('Request body must be JSON (Content-Type: application/json).', [], 'invalid_json');
    } else if (/^application\/x-www-form-urlencoded\b/i.test(type)) {
      ctx.request.body = Object.fromEntries(new URLSearchParams(raw));
    } else {
      if (exceedsJsonDepth(raw)) {
        throw new ValidationError(`Request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep.`, [], 'json_too_deep');
      }
      try {
        ctx.request.body = JSON.parse(raw);
      } catch {
        throw new ValidationError('Request body is not valid JSON.', [], 'invalid_json');
      }
    }
    await next();
  };
}
