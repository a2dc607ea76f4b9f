import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { AnyRoute } from './app';
import { registerRoute } from './route';
import { registerDeliveredRequest } from './routes/webhooks/delivered-request';

/** The document of these routes: what `GET /openapi.json` answers, and what sdks/openapi.json holds. */
export function documentOf(routes: AnyRoute[]): object {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'A product-scoped API key `svc_live_<prefix>_<32 hex>`; the webhook product takes `weh` keys.',
  });
  registry.registerComponent('securitySchemes', 'apiKeyHeader', {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: 'Optional on the cost estimator: an active key of any product applies its account limits.',
  });
  registerDeliveredRequest(registry);
  for (const route of routes) registerRoute(registry, route);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Developer-Operations Platform API',
      version: '1.0.0',
      description:
        'Key-scoped product APIs (webhook reliability), the public cost estimator and operational probes. ' +
        'Errors are `{"error","code",...}` (400 adds `details: [{path, message}]`); key-scoped responses carry ' +
        'X-RateLimit-* and X-Quota-* headers. Request bodies are JSON and are read as JSON whatever the ' +
        '`Content-Type` header says (`curl -d` without `-H "Content-Type: application/json"` works); a body that ' +
        'is not JSON is a 400 `invalid_json`.',
    },
    servers: [{ url: '/' }],
  });
}

