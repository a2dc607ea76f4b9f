import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { OPENAPI_FILE } from '../../scripts/sdks/openapi-document';
import { ensureTypeScriptSdk, generate, TYPESCRIPT_GENERATED_DIR, TYPESCRIPT_SDK_DIR } from '../../scripts/sdks/typescript';
import { libraryTests } from '../support/library-tests';
import { sdkSuitePlatform } from '../support/sdk-platform';
import { runQuickStart } from '../support/sdk-quick-start';

const tsx = path.join(TYPESCRIPT_SDK_DIR, 'node_modules', '.bin', 'tsx');

/** The files generated from `documentFile` that differ from the committed ones (or exist on one side only). */
async function staleGeneratedFiles(documentFile: string = OPENAPI_FILE): Promise<string[]> {
  const fresh = await mkdtemp(path.join(os.tmpdir(), 'sdk-typescript-'));
  await generate(fresh, documentFile);
  const names = new Set([...readdirSync(fresh), ...readdirSync(TYPESCRIPT_GENERATED_DIR)]);
  const read = (dir: string, name: string) => {
    try {
      return readFileSync(path.join(dir, name), 'utf8');
    } catch {
      return undefined;
    }
  };
  return [...names].filter((name) => read(fresh, name) !== read(TYPESCRIPT_GENERATED_DIR, name));
}

/** node:test's TAP summary: `# pass N`, `# fail N`, ... */
const tapCount = (out: string, name: string) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(out)?.[1]);

describe('TypeScript SDK (sdks/typescript)', () => {
  beforeAll(() => ensureTypeScriptSdk(() => undefined), 300_000);

  describe('its generated code', () => {
    it('is what sdks/openapi.json generates now (`npm run sdks` rewrites it)', async () => {
      expect(await staleGeneratedFiles()).toEqual([]);
    });

    it('is stale once a route is deleted from the document or a field changes', async () => {
      const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));
      const dir = await mkdtemp(path.join(os.tmpdir(), 'sdk-typescript-doc-'));
      const withoutRoute = structuredClone(document);
      delete withoutRoute.paths['/api/v1/webhooks/endpoints/{id}/secret/rotate'];
      writeFileSync(path.join(dir, 'without-route.json'), JSON.stringify(withoutRoute));
      const renamedField = structuredClone(document);
      const ingested = renamedField.components.schemas.SentEvent;
      ingested.properties.destination_count = ingested.properties.destinations;
      delete ingested.properties.destinations;
      writeFileSync(path.join(dir, 'renamed-field.json'), JSON.stringify(renamedField));

      expect(await staleGeneratedFiles(path.join(dir, 'without-route.json'))).toEqual(['openapi.ts']);
      expect(await staleGeneratedFiles(path.join(dir, 'renamed-field.json'))).toEqual(['openapi.ts']);
    });
  });

  it('passes its unit tests: the retry advice with an injected clock, idempotency keys, errors, pages', async () => {
    const out = await libraryTests(tsx, ['--test', 'test/retry.test.ts'], TYPESCRIPT_SDK_DIR);
    expect({ fail: tapCount(out, 'fail'), skipped: tapCount(out, 'skipped'), todo: tapCount(out, 'todo') }).toEqual({ fail: 0, skipped: 0, todo: 0 });
    expect(tapCount(out, 'pass')).toBeGreaterThanOrEqual(21);
  });

  it('type-checks', async () => {
    await libraryTests(path.join(TYPESCRIPT_SDK_DIR, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.test.json'], TYPESCRIPT_SDK_DIR);
  });

  describe('against a real platform', () => {
    const fixture = sdkSuitePlatform();

    it('passes its scenarios: endpoints, a RabbitMQ endpoint read back without its credentials, event types and a send refused by a schema, tenants (an event for one reaches only its endpoints; counts; delete) and portal sessions (a token as the client’s key sees only its tenant; read-only 403; revoked 401), sends, a lost answer retried into one event, pages, a delivery read, a secret rotated, a Free-tier 429 waited out, a receiver written with the receiver library verifying', async () => {
      const out = await libraryTests(tsx, ['--test', 'test/platform.test.ts'], TYPESCRIPT_SDK_DIR, { ...fixture.env });
      expect({ fail: tapCount(out, 'fail'), skipped: tapCount(out, 'skipped'), todo: tapCount(out, 'todo') }).toEqual({ fail: 0, skipped: 0, todo: 0 });
      expect(tapCount(out, 'pass')).toBeGreaterThanOrEqual(16);
    }, 600_000);

    it('runs the README’s quick start as written, told the platform (on a port other than 3000) by PLATFORM_URL: examples/send.ts sends an event', async () => {
      expect(new URL(fixture.env.PLATFORM_URL).port).not.toBe('3000');
      const out = await runQuickStart('typescript', fixture.env);
      expect(out).toMatch(/type: 'order\.created'/);
      expect(out).toMatch(/id: \d+/);
    }, 300_000);
  });
});
