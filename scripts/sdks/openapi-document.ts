/**
 * Writes sdks/openapi.json: the OpenAPI document exactly as `GET /openapi.json` serves it, built from
 * the routes without a server (no store, no Temporal), so the SDKs are generated from the code as it is.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadCatalogFile } from '../../src/infra/load-catalog-file';
import { PROJECT_ROOT } from '../../src/infra/tools';
import { apiRoutes } from '../../src/transport/http/api-routes';
import { documentOf } from '../../src/transport/http/openapi';

export const OPENAPI_FILE = path.join(PROJECT_ROOT, 'sdks', 'openapi.json');

/** Route definitions only describe their services' calls here; nothing is ever served. */
const NOT_SERVED = {} as never;

export async function openApiDocument(): Promise<object> {
  const routes = apiRoutes({
    health: NOT_SERVED,
    getDocument: () => ({}),
    endpoints: NOT_SERVED,
    bulkRecovery: NOT_SERVED,
    events: NOT_SERVED,
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
