import type { Middleware } from 'koa';
import getRawBody from 'raw-body';
import { DomainError, ValidationError } from '../../../domain/errors';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../json-nesting';

export const MAX_BODY_BYTES = 1024 * 1024;

const JSON_TYPE = /^application\/(.+\+)?json\b/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded\b/i;

/**
 * Reads bodies itself so the errors are ours. The API reads any Content-Type as JSON (`curl -d` labels JSON a form)
 * and takes no cookies, so no cross-site door; only `acceptsForms` paths parse forms.
 */
export function jsonBody(acceptsForms: (path: string) => boolean): Middleware {
  return async (ctx, next) => {
    if (!['POST', 'PUT', 'PATCH'].includes(ctx.method)) return next();
    const raw = await getRawBody(ctx.req, { limit: MAX_BODY_BYTES, length: ctx.request.length, encoding: 'utf8' }).catch((err: { type?: string }) => {
      if (err.type === 'entity.too.large') throw new DomainError('payload_too_large', 'Request body exceeds 1 MiB.');
      throw new ValidationError('Request body could not be read.', [], 'invalid_body');
    });
    const type = ctx.get('Content-Type');
    const forms = acceptsForms(ctx.path);
    if (raw.length === 0) {
      ctx.request.body = undefined;
    } else if (forms && FORM_TYPE.test(type)) {
      ctx.request.body = Object.fromEntries(new URLSearchParams(raw));
    } else if (forms && type && !JSON_TYPE.test(type)) {
      throw new ValidationError('Request body must be JSON (Content-Type: application/json).', [], 'invalid_json');
    } else {
      if (exceedsJsonDepth(raw)) {
        throw new ValidationError(`Request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep.`, [], 'json_too_deep');
      }
      try {
        ctx.request.body = JSON.parse(raw);
      } catch {
        const hint = type && !JSON_TYPE.test(type) ? ` It was sent as ${type.split(';')[0].trim().slice(0, 100)}; send JSON with the header Content-Type: application/json.` : '';
        throw new ValidationError(`Request body is not valid JSON.${hint}`, [], 'invalid_json');
      }
    }
    await next();
  };
}
