import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../../src/infra/tools';
import { openApiDocument } from '../../../scripts/sdks/openapi-document';

type Schema = Record<string, any>;

/** Where, below `node`, a schema of its own (an object with properties, or an enum) is written inline rather than named. */
function inlineSchemas(node: unknown, where: string, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((item, i) => inlineSchemas(item, `${where}/${i}`, out));
  else if (node !== null && typeof node === 'object') {
    const schema = node as Schema;
    if ((schema.type === 'object' && schema.properties) || Array.isArray(schema.enum)) out.push(where);
    else for (const [key, value] of Object.entries(schema)) inlineSchemas(value, `${where}/${key}`, out);
  }
  return out;
}

const generated = (...parts: string[]) => path.join(PROJECT_ROOT, 'sdks', ...parts);
const WEBHOOK_TYPES = ['Event', 'EventPage', 'EventWithDeliveries', 'Delivery', 'DeliveryStatus', 'EventStatus', 'Attempt', 'SentEvent', 'SendEventRequest', 'Endpoint', 'EndpointWithSecret', 'EndpointPage', 'CreateEndpointRequest', 'UpdateEndpointRequest', 'DisabledReason', 'EndpointOrdering'];
const snake = (name: string) => name.replace(/(?<!^)([A-Z])/g, '_$1').toLowerCase();

/**
 * The generated models are named after what they are (the document's components: `Delivery`, `DeliveryStatus`), not
 * after the path and status code they were first met under (`GetApiV1WebhooksEventsEventIdResponse200DeliveriesItemStatus`).
 * Read from the committed SDKs; test/integration/sdk-*.test.ts check that they are what the document generates.
 */
describe('generated model names', () => {
  it('the document: every object and enum a webhook operation takes or returns is a named component', async () => {
    const doc = (await openApiDocument()) as Schema;
    const inline = Object.entries<Schema>(doc.paths)
      .filter(([p]) => p.startsWith('/api/v1/webhooks/'))
      .flatMap(([p, item]) => inlineSchemas(item, p));
    expect(inline).toEqual([]);
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(WEBHOOK_TYPES));
  });

  it('TypeScript: components.schemas has each type', () => {
    const source = readFileSync(generated('typescript', 'src', 'generated', 'openapi.ts'), 'utf8');
    const schemas = source.slice(source.indexOf('export interface components {'));
    for (const name of WEBHOOK_TYPES) expect(schemas).toMatch(new RegExp(`^ {8}${name}: `, 'm'));
  });

  it('Python: a model per type, and none named after a path', () => {
    const models = readdirSync(generated('python', 'src', 'platform_sdk', 'generated', 'models'));
    expect(models.filter((file) => /^(get|post|put|patch|delete)_api_v1_/.test(file))).toEqual([]);
    for (const name of WEBHOOK_TYPES) expect(models).toContain(`${snake(name)}.py`);
  });

  it('Go: a type per type, and none named after a path but the operations\' own (params, request and response wrappers)', () => {
    const source = readFileSync(generated('go', 'generated', 'client.gen.go'), 'utf8');
    const types = [...source.matchAll(/^type (\w+) /gm)].map((m) => m[1]);
    for (const name of WEBHOOK_TYPES) expect(types).toContain(name);
    const pathNamed = types.filter((t) => /^(Get|Post|Put|Patch|Delete)ApiV1/.test(t) && !/(Params|JSONRequestBody|Response|Response\d{3}Headers)$/.test(t));
    expect(pathNamed).toEqual([]);
  });
});
