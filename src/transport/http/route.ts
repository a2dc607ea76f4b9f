import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { z } from 'zod';
import { ValidationError } from '../../domain/errors';
import { ExactMember, readJsonBody, withExactMember } from './middleware/json-body';
import { withBodyErrors } from './responses';
import { humanIssueMessage, InputPart, issueDetails, validationSummary } from './validation-messages';

/** One route = one definition: its zod schemas validate the request, type the handler, and document the operation. */
export interface RouteDefinition<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  method: 'get' | 'post' | 'patch' | 'put' | 'delete';
  /** Koa-style path (`/api/v1/things/:id`); converted to `{id}` for OpenAPI. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  security?: RouteConfig['security'];
  params?: P;
  query?: Q;
  body?: B;
  /** A body member whose numbers reach the handler as sent (LosslessNumber where a double would change them), not as JSON.parse read them. */
  exactNumbersIn?: ExactMember;
  responses: RouteConfig['responses'];
  middleware?: Middleware[];
  handler: (ctx: Context, input: { params: z.infer<P>; query: z.infer<Q>; body: z.infer<B> }) => Promise<void> | void;
}

export function defineRoute<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType>(
  def: RouteDefinition<P, Q, B>,
): RouteDefinition<P, Q, B> {
  return def;
}

export function toOpenApiPath(koaPath: string): string {
  return koaPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** One part of a request checked against its schema; a refusal is the API's ValidationError, in its words. */
export function parseInput<T extends z.ZodType>(schema: T | undefined, value: unknown, part: InputPart): z.infer<T> {
  if (!schema) return value as z.infer<T>;
  const result = schema.safeParse(value, { error: humanIssueMessage });
  if (!result.success) throw new ValidationError(validationSummary(result.error, part), issueDetails(result.error, part));
  return result.data;
}

export function registerRoute(registry: OpenAPIRegistry, def: RouteDefinition<z.ZodType, z.ZodType, z.ZodType>): void {
  const request: RouteConfig['request'] = {};
  if (def.params) request.params = def.params as never;
  if (def.query) request.query = def.query as never;
  // A body whose schema accepts nothing at all (no body sent) is documented as optional.
  if (def.body) request.body = { content: { 'application/json': { schema: def.body } }, required: !def.body.safeParse(undefined).success };
  registry.registerPath({
    method: def.method,
    path: toOpenApiPath(def.path),
    summary: def.summary,
    description: def.description,
    tags: def.tags,
    security: def.security,
    request,
    responses: def.method === 'get' ? def.responses : withBodyErrors(def.responses),
  });
}

/** A parameter given twice arrives as a list, which a schema of one value refuses as "must be a number": said as what it is. */
function refuseRepeated(schema: z.ZodType | undefined, query: Record<string, unknown>): void {
  if (!(schema instanceof z.ZodObject)) return;
  const shape = schema.shape as Record<string, z.ZodType>;
  const repeated = Object.keys(query).filter((name) => Array.isArray(query[name]) && Object.hasOwn(shape, name) && !shape[name].safeParse(query[name]).success);
  if (repeated.length === 0) return;
  throw new ValidationError(`Query parameter ${repeated[0]} must be given once.`, repeated.map((name) => ({ path: `query.${name}`, message: 'must be given once' })));
}

/** What a route that takes no body accepts: none, or `{}`; any field in it is unknown (400 naming it), as on every body. */
const NO_BODY = z.strictObject({}).optional();

export function mountRoute(router: Router, def: RouteDefinition<z.ZodType, z.ZodType, z.ZodType>): void {
  const handler: Middleware = async (ctx) => {
    const params = parseInput(def.params, ctx.params, 'path');
    refuseRepeated(def.query, ctx.query);
    const query = parseInput(def.query, ctx.query, 'query');
    const body = parseInput(def.body ?? NO_BODY, ctx.request.body, 'body');
    await def.handler(ctx, { params, query, body: def.exactNumbersIn ? withExactMember(ctx, body, def.exactNumbersIn) : body });
  };
  // The body is read here, once the route is known: a request no route answers gets its 404 or 405, not an error about its body.
  const reader = def.method === 'get' ? [] : [readJsonBody];
  router[def.method](def.path, ...reader, ...(def.middleware ?? []), handler);
}
