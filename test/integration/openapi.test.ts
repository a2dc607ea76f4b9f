import type { Platform } from '../../src/main/platform';
import { toOpenApiPath } from '../../src/transport/http/route';
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
});
