/**
 * Generates the Go SDK's client (sdks/go/generated/client.gen.go) from sdks/openapi.json with the pinned
 * oapi-codegen and its config file (sdks/go/oapi-codegen.yaml).
 *
 * The types take the names of the document's components (the zod schemas' ids). oapi-codegen reads only OpenAPI 3.0,
 * so a pre-pass, deterministic and kept here, states the OpenAPI 3.1 forms it meets in their 3.0 spelling
 * (`type: [T, "null"]` and `anyOf: [T, {type: "null"}]` → `nullable`, a numeric `exclusiveMinimum`). The wire is unchanged.
 */
import { execFile } from 'node:child_process';
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

/** The document as oapi-codegen is given it (see the file's comment). */
export function documentForGo(document: Schema): Schema {
  return spelledAs30(document);
}

const isNull = (schema: unknown) => typeof schema === 'object' && schema !== null && (schema as Schema).type === 'null' && Object.keys(schema).length === 1;

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
  // A named schema or null: 3.0 puts `nullable` beside an allOf of the one schema ($ref takes no siblings there).
  if (Array.isArray(out.anyOf) && out.anyOf.length === 2 && out.anyOf.some(isNull)) {
    const { anyOf, ...rest } = out;
    return { ...rest, allOf: anyOf.filter((s: unknown) => !isNull(s)), nullable: true };
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
