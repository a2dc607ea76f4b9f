import type { ResponseConfig, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { type Catalog, type CatalogFilter, CATEGORIES, estimateCost, type ExactEstimateItem, parseCatalogQuery, PROVIDERS } from '../../../domain/cost-estimator';
import { COST_ESTIMATOR_PATH } from '../middleware/estimator-access';
import { json, withLimitHeaders } from '../responses';
import { defineRoute } from '../route';
import { CatalogBody, CatalogQuery, EstimateBody, EstimateRequestBody, EstimatorErrorBody, EXAMPLE_ESTIMATE_REQUEST } from './cost-estimator-schemas';

const tags = ['Cost estimator'];
/** Authentication is optional: anonymous (limits per IPv4 address or IPv6 /64) or `x-api-key` (the account's limits). */
const OPTIONAL_KEY: Array<Record<string, string[]>> = [{}, { apiKeyHeader: [] }];
/** Fixed so the documented example does not change with every document generation. */
const EXAMPLE_TIME = new Date('2026-11-22T12:00:00.000Z');

const key = (filter: CatalogFilter) => `${filter.provider ?? '*'}/${filter.category ?? '*'}`;

/** GET /api/cost-estimator bodies, serialized once per filter combination: the catalog never changes while the process runs. */
function catalogBodies(catalog: Catalog): (filter: CatalogFilter) => Buffer {
  const bodies = new Map<string, Buffer>();
  for (const provider of [undefined, ...PROVIDERS]) {
    for (const category of [undefined, ...CATEGORIES]) {
      const filter = { provider, category };
      const services = catalog.filter(filter);
      bodies.set(key(filter), Buffer.from(JSON.stringify({ count: services.length, services })));
    }
  }
  // parseCatalogQuery admits only the values precomputed above.
  return (filter) => bodies.get(key(filter))!;
}

/** CONTRACT §5. Access and limits are the estimatorAccess guard's, which runs before the body is read. */
export function costEstimatorRoutes(catalog: Catalog) {
  const bodyOf = catalogBodies(catalog);
  const exampleServices = catalog.filter({ provider: 'aws', category: 'compute' });

  return [
    defineRoute({
      method: 'get',
      path: COST_ESTIMATOR_PATH,
      summary: 'The priced service catalog',
      description:
        `${catalog.entries.length} configurations (catalog version ${catalog.version}, list prices of ${catalog.pricedAt}: ` +
        `${PROVIDERS.map((p) => `${p} ${catalog.regions[p]}`).join(', ')}). Filters combine; an unknown value is a 400 listing the \`allowed\` values.`,
      tags,
      security: OPTIONAL_KEY,
      query: CatalogQuery,
      responses: estimatorResponses(
        json('Matching entries in catalog order.', CatalogBody, { count: exampleServices.length, services: exampleServices }),
        {
          400: {
            error: 'Unknown provider "oracle". Allowed values: aws, gcp, azure.',
            code: 'invalid_request',
            details: [{ path: 'query.provider', message: 'must be one of: aws, gcp, azure' }],
            allowed: [...PROVIDERS],
          },
        },
      ),
      handler: (ctx) => {
        const filter = parseCatalogQuery(ctx.query);
        ctx.type = 'application/json';
        ctx.body = bodyOf(filter);
      },
    }),
    defineRoute({
      method: 'post',
      path: COST_ESTIMATOR_PATH,
      summary: 'Estimate monthly and annual cost',
      description:
        'Prices each item against the catalog: per hour/vCPU-hour/GB-hour × quantity × hoursPerMonth (default 730); ' +
        'per GB/month and per GB × quantity × gbPerMonth (required); monthly units × quantity; per million/100K/10K/1K ' +
        'and per GB-second × quantity (quantity counts the priced blocks). Exact decimals; each line rounded half-up to cents; ' +
        'the total is the unrounded sum rounded once; annual = 12 × monthly. An unknown provider or a bad field is a 400; ' +
        'an item the catalog cannot price is a 422 naming its `index`; so is an item (or a total) costing more than ' +
        '$10,000,000,000,000 a year (`estimate_out_of_range`: beyond it, amounts would not be exact cents in JSON).',
      tags,
      security: OPTIONAL_KEY,
      body: EstimateRequestBody,
      // Money from the digits sent: a quantity of 21 significant digits would otherwise be priced as its nearest double.
      exactNumbersIn: { member: 'items' },
      responses: estimatorResponses(
        json(
          'The estimate with one breakdown line per item, in request order.',
          EstimateBody,
          estimateCost(catalog, EXAMPLE_ESTIMATE_REQUEST.items, () => EXAMPLE_TIME),
        ),
        {
          400: {
            error: 'Invalid request body.',
            code: 'invalid_request',
            details: [{ path: 'items.0.quantity', message: 'must be greater than 0' }],
          },
          422: {
            error: 'items[0]: aws / Amazon EC2 has 6 instances; choose one with "instance".',
            code: 'instance_required',
            index: 0,
            instances: catalog.instancesOf('aws', 'Amazon EC2').map((e) => e.instance),
          },
        },
      ),
      handler: (ctx, { body }) => {
        ctx.body = estimateCost(catalog, body.items as ExactEstimateItem[]);
      },
    }),
  ];
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid parameters or body (`details` says where; GET adds `allowed`).',
  401: 'x-api-key given but malformed, unknown or revoked.',
  422: 'Valid body with an item the catalog cannot price (`index`, and `instances` when an instance is missing or unknown), or costing more than an estimate reports (`estimate_out_of_range`).',
  429: 'Per-minute burst limit (anonymous: 30 per IPv4 address or IPv6 /64) or the monthly quota of the key’s account exceeded; see Retry-After.',
  500: 'Internal error; safe to retry with backoff.',
};

function estimatorResponses(success: ResponseConfig, errorExamples: Partial<Record<400 | 422, unknown>>): RouteConfig['responses'] {
  const responses: RouteConfig['responses'] = { 200: success };
  for (const status of [400, 401, ...(422 in errorExamples ? [422] : []), 429, 500]) {
    responses[status] = json(ERROR_DESCRIPTIONS[status], EstimatorErrorBody, errorExamples[status as 400 | 422]);
  }
  return withLimitHeaders(responses);
}
