import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generate, GO_GENERATED_DIR } from '../../scripts/sdks/go';
import { OPENAPI_FILE } from '../../scripts/sdks/openapi-document';
import { fileTree, sdkSuitePlatform, sdkTests } from '../support/sdk-platform-py-go';
import { ensureGoSdkToolchain, GO_SDK_DIR } from '../support/sdk-toolchains';

const goTest = (dir: string, env: Record<string, string> = {}) => sdkTests('go', ['test', '-count=1', '-v', './...'], dir, env);
const passed = (out: string) => (out.match(/^\s*--- PASS: /gm) ?? []).length;

describe('Go SDK (sdks/go)', () => {
  beforeAll(() => ensureGoSdkToolchain(() => undefined), 600_000);

  describe('generated client', () => {
    it('is what sdks/openapi.json generates now (`npm run sdks` regenerates it)', async () => {
      const outDir = await mkdtemp(path.join(os.tmpdir(), 'sdk-go-'));
      await generate(outDir);
      expect(await fileTree(outDir)).toEqual(await fileTree(GO_GENERATED_DIR));
    }, 300_000);

    const withoutDestinations = (doc: any) => {
      for (const status of ['200', '202']) delete doc.paths['/api/v1/webhooks/events'].post.responses[status].content['application/json'].schema.properties.destinations;
    };
    it.each<[string, (doc: any) => void, (code: string) => boolean]>([
      ['a route is removed', (doc) => delete doc.paths['/api/v1/webhooks/endpoints/{id}/recover'], (code) => !/PostApiV1WebhooksEndpointsIdRecover/.test(code)],
      ['a field is removed', withoutDestinations, (code) => /type SentEvent struct \{(?![^}]*Destinations)/.test(code)],
    ])('differs from the committed one when %s in the document, so the check above catches it', async (_change, change, seen) => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'sdk-go-'));
      const document = JSON.parse(await readFile(OPENAPI_FILE, 'utf8'));
      change(document);
      await writeFile(path.join(dir, 'openapi.json'), JSON.stringify(document));
      await generate(path.join(dir, 'out'), path.join(dir, 'openapi.json'));
      const regenerated = await fileTree(path.join(dir, 'out'));
      expect(regenerated).not.toEqual(await fileTree(GO_GENERATED_DIR));
      expect(seen(regenerated['client.gen.go'])).toBe(true);
    }, 300_000);
  });

  it('passes its unit tests of the retry policy (injected sleep and random, no network)', async () => {
    const out = await goTest(GO_SDK_DIR);
    expect(passed(out)).toBeGreaterThanOrEqual(15);
    expect(out).not.toMatch(/--- FAIL|--- SKIP/);
  }, 300_000);

  describe('against a real platform', () => {
    const fixture = sdkSuitePlatform();

    it('passes every scenario: endpoints, sends, a send retried after a time-out, paging, a delivery, rotation, a 429, end to end', async () => {
      const out = await goTest(path.join(GO_SDK_DIR, 'platformtest'), fixture.env);
      for (const scenario of [
        'TestRegisterAnEndpointThenReadUpdateListAndDeleteIt',
        'TestSendEvents',
        'TestASendRetriedAfterATimeOutResultsInOneEvent',
        'TestPageThroughEvents',
        'TestReadADelivery',
        'TestRotateASecret',
        'TestA429OfTheFreeTierBurstIsWaitedOutWithin5Retries',
        'TestEndToEndADeliverySentWithTheSDKIsVerifiedByTheReceiverLibrary',
      ]) {
        expect(out).toMatch(new RegExp(`--- PASS: ${scenario} `));
      }
      expect(out).not.toMatch(/--- FAIL|--- SKIP/);
    }, 300_000);
  });
});
