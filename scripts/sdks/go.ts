/**
 * Generates the Go SDK's client (sdks/go/generated/client.gen.go) from sdks/openapi.json with the pinned
 * oapi-codegen and its config file (sdks/go/oapi-codegen.yaml).
 *
 * oapi-codegen turns an inline schema into an anonymous struct, which Go code cannot name; the document's
 * request and response schemas are inline (zod routes). So a pre-pass, deterministic and kept here, moves the
 * schemas the SDK returns or takes into components under the names of NAMED_SCHEMAS (a schema named twice
 * must be the same both times), and states the OpenAPI 3.1 forms oapi-codegen reads only in their 3.0 spelling
 * (`type: [T, "null"]` → `nullable`, a numeric `exclusiveMinimum`). The wire is unchanged.
 */
import { execFile } from 'node:child_process';
import { isDeepStrictEqual } from 'node:util';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../src/infra/tools';
import { GO_SDK_DIR, SDK_GENERATORS } from '../../test/support/sdk-toolchains';
import { OPENAPI_FILE } from './openapi-document';

const run = promisify(execFile);

export const GO_GENERATED_DIR = path.join(GO_SDK_DIR, 'generated');
export const GO_GENERATOR_CONFIG = path.join(GO_SDK_DIR, 'oapi-codegen.yaml');
export const GO_GENERATED_FILE = 'client.gen.go';

type Schema = Record<string, any>;
/** [operation, where in it (a JSON pointer below the operation), the name]: deepest first, so that an outer schema refers to its inner names. */
type Naming = [string, string, string];

const json = (status: string) => `/responses/${status}/content/application~1json/schema`;
const BODY = '/requestBody/content/application~1json/schema';
const ERRORS = ['400', '401', '403', '404', '409', '413', '422', '429', '500', '503'];
const ENDPOINT_OPS = ['get /api/v1/webhooks/endpoints/{id}', 'patch /api/v1/webhooks/endpoints/{id}', 'post /api/v1/webhooks/endpoints/{id}/pause', 'post /api/v1/webhooks/endpoints/{id}/resume'];
const DELIVERY_OPS = ['retry', 'retry-now', 'cancel'].map((a) => `post /api/v1/webhooks/events/{event_id}/deliveries/{endpoint_id}/${a}`);

export const NAMED_SCHEMAS: Naming[] = [
  ['post /api/v1/webhooks/events', BODY, 'SendEventRequest'],
  ['post /api/v1/webhooks/events', json('202'), 'SentEvent'],
  ['post /api/v1/webhooks/events', json('200'), 'SentEvent'],
  ['get /api/v1/webhooks/events', `${json('200')}/properties/data/items`, 'Event'],
  ['get /api/v1/webhooks/events', json('200'), 'EventPage'],
  ['get /api/v1/webhooks/events/{event_id}', `${json('200')}/properties/deliveries/items/properties/attempts/items`, 'Attempt'],
  ['get /api/v1/webhooks/events/{event_id}', `${json('200')}/properties/deliveries/items`, 'Delivery'],
  ['get /api/v1/webhooks/events/{event_id}', json('200'), 'EventWithDeliveries'],
  ...DELIVERY_OPS.flatMap((op): Naming[] => [
    [op, `${json('202')}/properties/attempts/items`, 'Attempt'],
    [op, json('202'), 'Delivery'],
  ]),
  ['post /api/v1/webhooks/endpoints', BODY, 'CreateEndpointRequest'],
  ['post /api/v1/webhooks/endpoints', json('201'), 'EndpointWithSecret'],
  ['get /api/v1/webhooks/endpoints', `${json('200')}/properties/data/items`, 'Endpoint'],
  ['get /api/v1/webhooks/endpoints', json('200'), 'EndpointPage'],
  ...ENDPOINT_OPS.map((op): Naming => [op, json('200'), 'Endpoint']),
  ['patch /api/v1/webhooks/endpoints/{id}', BODY, 'UpdateEndpointRequest'],
  ['get /api/v1/webhooks/endpoints/{id}/secret', json('200'), 'Secret'],
  ['post /api/v1/webhooks/endpoints/{id}/secret/rotate', BODY, 'RotateSecretRequest'],
  ['post /api/v1/webhooks/endpoints/{id}/secret/rotate', json('200'), 'Secret'],
  ['post /api/v1/webhooks/endpoints/{id}/recover', BODY, 'RecoverRequest'],
  ['post /api/v1/webhooks/endpoints/{id}/recover', json('202'), 'Recovery'],
  ['post /api/v1/webhooks/endpoints/{id}/retry-now', BODY, 'RetryNowRequest'],
  ['post /api/v1/webhooks/endpoints/{id}/retry-now', json('200'), 'RetryNowResult'],
];

const unescape = (token: string) => token.replace(/~1/g, '/').replace(/~0/g, '~');

/** The document as oapi-codegen is given it (see the file's comment). */
export function documentForGo(document: Schema): Schema {
  const doc = structuredClone(document);
  const schemas: Record<string, Schema> = doc.components.schemas;
  const named = (name: string, schema: Schema) => {
    if (schemas[name] && !isDeepStrictEqual(schemas[name], schema)) throw new Error(`two different schemas would be named ${name}`);
    schemas[name] = schema;
    return { $ref: `#/components/schemas/${name}` };
  };
  const namings: Naming[] = [...NAMED_SCHEMAS];
  // Every error answer of a webhook operation is the platform's error body.
  for (const [p, item] of Object.entries<Schema>(doc.paths)) {
    if (!p.startsWith('/api/v1/webhooks/')) continue;
    for (const [method, op] of Object.entries<Schema>(item)) {
      for (const status of ERRORS) if (op.responses?.[status]) namings.push([`${method} ${p}`, json(status), 'Error']);
    }
  }
  for (const [operation, pointer, name] of namings) {
    const [method, p] = operation.split(' ');
    const tokens = pointer.split('/').slice(1).map(unescape);
    const last = tokens.pop() as string;
    let parent: Schema | undefined = doc.paths[p]?.[method];
    for (const token of tokens) parent = parent?.[token];
    // A route the document lacks is left out, so that the generated code follows the document.
    if (parent?.[last] === undefined) continue;
    if (parent[last].$ref === undefined) parent[last] = named(name, parent[last]);
  }
  return spelledAs30(doc);
}

function spelledAs30(node: any): any {
  if (Array.isArray(node)) return node.map(spelledAs30);
  if (node === null || typeof node !== 'object') return node;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) out[key] = spelledAs30(value);
  if (Array.isArray(out.type) && out.type.includes('null')) {
    const types = out.type.filter((t: string) => t !== 'null');
    if (types.length === 1) {
      out.type = types[0];
      out.nullable = true;
      if (Array.isArray(out.enum)) out.enum = out.enum.filter((v: unknown) => v !== null);
    }
  }
  if (typeof out.exclusiveMinimum === 'number') {
    out.minimum = out.exclusiveMinimum;
    out.exclusiveMinimum = true;
  }
  if (typeof out.openapi === 'string' && out.paths) out.openapi = '3.0.3';
  return out;
}

/** Writes the generated package into `outDir` (client.gen.go), from `document` (the committed OpenAPI document unless told). */
export async function generate(outDir: string = GO_GENERATED_DIR, document: string = OPENAPI_FILE): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'sdk-go-document-'));
  try {
    const input = path.join(work, 'openapi.json');
    await writeFile(input, JSON.stringify(documentForGo(JSON.parse(await readFile(document, 'utf8'))), null, 2));
    await run('go', ['run', SDK_GENERATORS.go, '-config', GO_GENERATOR_CONFIG, '-o', path.join(outDir, GO_GENERATED_FILE), input], {
      cwd: GO_SDK_DIR,
      maxBuffer: 16 << 20,
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
