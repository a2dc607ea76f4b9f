/**
 * `npm run sdks`: writes sdks/openapi.json, the OpenAPI document exactly as `GET /openapi.json` serves it, built from
 * the routes without a server (no store, no Temporal), so the SDKs are generated from the code as it is.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../../src/config/config';
import { loadCatalogFile } from '../../src/infra/load-catalog-file';
import { PROJECT_ROOT } from '../../src/infra/tools';
import { MAX_EVENT_TYPES_PER_ACCOUNT } from '../../src/domain/webhooks/event-type';
import { apiRoutes } from '../../src/transport/http/api-routes';
import { documentOf } from '../../src/transport/http/openapi';

export const OPENAPI_FILE = path.join(PROJECT_ROOT, 'sdks', 'openapi.json');

/** Nothing is served here: a route that reads its service while being defined fails loudly. */
const NOT_SERVED = new Proxy({}, {
  get: (_target, name) => {
    throw new Error(`the OpenAPI document read ${String(name)} of a service: pass it in openApiDocument()`);
  },
}) as never;

export async function openApiDocument(): Promise<object> {
  const routes = apiRoutes({
    health: NOT_SERVED,
    getDocument: () => ({}),
    // The documented cap is the default configuration's (MAX_ENDPOINTS_PER_ACCOUNT).
    endpoints: { maxEndpointsPerAccount: loadConfig({}).maxEndpointsPerAccount, tenantCaps: loadConfig({}).tenantCaps } as never,
    events: NOT_SERVED,
    eventTypes: { maxPerAccount: MAX_EVENT_TYPES_PER_ACCOUNT } as never,
    tenants: NOT_SERVED,
    portalSessions: NOT_SERVED,
    portalSettings: NOT_SERVED,
    catalog: await loadCatalogFile(),
  });
  return documentOf(routes);
}

export const serialised = (document: object) => `${JSON.stringify(document, null, 2)}\n`;

export async function writeOpenApiDocument(file: string = OPENAPI_FILE): Promise<void> {
  await writeFile(file, serialised(await openApiDocument()));
}

if (require.main === module) {
  writeOpenApiDocument().then(
    () => process.stdout.write(`wrote ${path.relative(PROJECT_ROOT, OPENAPI_FILE)}\n`),
    (err) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
}
