import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { WebhookHeader } from '../../domain/webhooks/delivery-request';
import type { AnyRoute } from './app';
import { registerRoute } from './route';

/** The request every attempt sends to an endpoint, as an OpenAPI 3.1 webhook (delivery-request.ts builds it). */
const DeliveredHeaders = z.object({
  [WebhookHeader.Id]: z.string().describe('The event id (the body\'s `id`).'),
  [WebhookHeader.Type]: z.string().describe('The event type (the body\'s `type`).'),
  [WebhookHeader.Timestamp]: z.string().describe('The event\'s Unix seconds (the body\'s `timestamp`).'),
  [WebhookHeader.Signature]: z
    .string()
    .describe('Spec scheme: `sha256=<lowercase hex HMAC-SHA256 of the raw body>`, keyed with the whole `whsec_...` secret string (the newest secret).'),
  [WebhookHeader.StandardId]: z.string().describe('Standard Webhooks: the event id; the same on every attempt and round (de-duplicate on it).'),
  [WebhookHeader.StandardTimestamp]: z.string().describe('Standard Webhooks: Unix seconds of this attempt; receivers refuse it beyond ±5 minutes (replay protection).'),
  [WebhookHeader.StandardSignature]: z
    .string()
    .describe(
      'Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, keyed with the base64-decoded part after `whsec_`; ' +
        'one space-separated entry per secret alive (the newest first, then those in a rotation grace period). Any one valid entry verifies.',
    ),
});

const DeliveredBody = z.object({
  id: z.number().int(),
  type: z.string(),
  data: z.object({}).passthrough(),
  timestamp: z.number().int(),
});

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
  registry.registerWebhook({
    method: 'post',
    path: 'delivery',
    summary: 'What an endpoint receives: one POST per attempt, signed under two schemes',
    description:
      'Verify with the libraries in `receivers/` (TypeScript, Python, Go) or any Standard Webhooks library; see docs/receiving.md. ' +
      'Work on the raw body bytes: re-serialised JSON does not verify.',
    tags: ['Webhook endpoints'],
    request: { headers: DeliveredHeaders, body: { content: { 'application/json': { schema: DeliveredBody } }, required: true } },
    responses: { 200: { description: 'Any 2xx ends the delivery; anything else (or no answer within the time-out) is retried.' } },
  });
  for (const route of routes) registerRoute(registry, route);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Developer-Operations Platform API',
      version: '1.0.0',
      description:
        'Key-scoped product APIs (webhook reliability), the public cost estimator and operational probes. ' +
        'Errors are `{"error","code",...}` (400 adds `details: [{path, message}]`); key-scoped responses carry ' +
        'X-RateLimit-* and X-Quota-* headers. Request bodies are JSON sent with `Content-Type: application/json` ' +
        '(an unlabelled body is read as JSON too), uncompressed: a body that is not JSON is a 400 `invalid_json`; a JSON ' +
        'body labelled with another type (`curl -d` without `-H "Content-Type: application/json"` labels it a form), or ' +
        'sent with a `Content-Encoding`, is a 415 `unsupported_media_type`. A body field the operation does not document ' +
        'is a 400 `invalid_request` naming it (any key is allowed inside an event\'s `data`).',
    },
    servers: [{ url: '/' }],
  });
}

