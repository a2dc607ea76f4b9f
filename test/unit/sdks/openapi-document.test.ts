import { readFileSync } from 'node:fs';
import { OPENAPI_FILE, openApiDocument, serialised } from '../../../scripts/sdks/openapi-document';

/** The SDKs are generated from sdks/openapi.json: it must be the document the routes describe now (`npm run sdks` rewrites it). */
describe('sdks/openapi.json', () => {
  it('is the OpenAPI document of the routes as they are', async () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(serialised(await openApiDocument()));
  });

  it('describes every webhook operation of the spec', async () => {
    const paths = Object.keys(((await openApiDocument()) as { paths: Record<string, unknown> }).paths);
    expect(paths).toEqual(expect.arrayContaining(['/api/v1/webhooks/events', '/api/v1/webhooks/events/{event_id}', '/api/v1/webhooks/endpoints', '/api/v1/webhooks/endpoints/{id}']));
  });
});
