import type { Platform } from '../../src/main/platform';
import { toOpenApiPath } from '../../src/transport/http/route';
import { readFileSync } from 'node:fs';
import { OPENAPI_FILE } from '../../scripts/sdks/openapi-document';
import { apiClient, startTestPlatform } from '../support/platform';

/** The OpenAPI document is generated from the routes themselves; none may be missing from it. */
describe('GET /openapi.json', () => {
  let platform: Platform;
  let document: any;

  beforeAll(async () => {
    platform = await startTestPlatform({ roles: { api: true, worker: false } });
    const res = await apiClient(platform).get('/openapi.json');
    expect(res.status).toBe(200);
    document = res.body;
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('is the document committed as sdks/openapi.json, which the SDK generators read', () => {
    expect(document).toEqual(JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')));
  });

  it('is an OpenAPI 3.1 document', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toEqual(expect.any(String));
  });

  it('documents every registered route under its {param} path', () => {
    const routes = platform.routes ?? [];
    expect(routes.length).toBeGreaterThan(0);
    const missing = routes
      .map((route) => `${route.method.toUpperCase()} ${toOpenApiPath(route.path)}`)
      .filter((op) => {
        const [method, path] = op.split(' ');
        return document.paths?.[path]?.[method.toLowerCase()] === undefined;
      });
    expect(missing).toEqual([]);
  });

  const operations = () =>
    Object.entries(document.paths as Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, method, responses: op.responses })),
    );

  it('documents 400, 413 and 415 on every operation whose body is read (any but a GET)', () => {
    const missing = operations()
      .filter((op) => op.method !== 'get' && op.method !== 'head')
      .flatMap((op) => ['400', '413', '415'].filter((status) => !op.responses[status]).map((status) => `${op.name} ${status}`));
    expect(missing).toEqual([]);
  });

  it("declares Retry-After on every 429 and 503 (but readiness's, a probe's answer)", () => {
    const missing = operations()
      .filter((op) => op.name !== 'GET /readyz')
      .flatMap((op) => ['429', '503'].filter((status) => op.responses[status] && !op.responses[status].headers?.['Retry-After']).map((status) => `${op.name} ${status}`));
    expect(missing).toEqual([]);
  });

  it('documents the 503 of both retry-now operations', () => {
    const retryNow = operations().filter((op) => op.name.endsWith('/retry-now'));
    expect(retryNow).toHaveLength(2);
    for (const op of retryNow) expect(op.responses['503']).toBeDefined();
  });

  it('uses no Koa-style :param path', () => {
    expect(Object.keys(document.paths).filter((p) => p.includes(':'))).toEqual([]);
  });

  it('documents the cost estimator with examples and optional key authentication', () => {
    const item = document.paths['/api/cost-estimator'];
    expect(item.get.responses['200'].content['application/json'].example.count).toBe(6);
    expect(item.get.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['category', 'provider']);
    expect(item.post.requestBody.content['application/json'].schema.example.items.length).toBeGreaterThan(0);
    expect(item.post.responses['200'].content['application/json'].example.totalMonthlyUsd).toEqual(expect.any(Number));
    expect(item.post.security).toEqual([{}, { apiKeyHeader: [] }]);
  });

  it('describes the delivered request with the headers of both signature schemes', () => {
    const delivery = document.webhooks?.delivery?.post;
    const headers = (delivery?.parameters ?? []).filter((p: any) => p.in === 'header').map((p: any) => p.name);
    expect(headers).toEqual(
      expect.arrayContaining(['X-Webhook-ID', 'X-Webhook-Type', 'X-Webhook-Timestamp', 'X-Webhook-Signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature']),
    );
  });

  it('describes the rotation body as optional, with its grace period bounds', () => {
    const rotate = document.paths['/api/v1/webhooks/endpoints/{id}/secret/rotate'].post;
    expect(rotate.requestBody.required).toBe(false);
    const named = rotate.requestBody.content['application/json'].schema;
    const schema = named.$ref ? document.components.schemas[named.$ref.replace('#/components/schemas/', '')] : named;
    const grace = (schema.properties ?? schema.anyOf?.find((s: any) => s.properties)?.properties)?.grace_period_seconds;
    expect(grace).toMatchObject({ type: 'integer', minimum: 0, maximum: 604800 });
  });
});
