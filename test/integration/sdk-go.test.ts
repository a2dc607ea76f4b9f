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

    it('differs from the committed one when a route is removed from the document, so the check above catches it', async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'sdk-go-'));
      const document = JSON.parse(await readFile(OPENAPI_FILE, 'utf8'));
      delete document.paths['/api/v1/webhooks/endpoints/{id}/recover'];
      await writeFile(path.join(dir, 'openapi.json'), JSON.stringify(document));
      await generate(path.join(dir, 'out'), path.join(dir, 'openapi.json'));
      const regenerated = await fileTree(path.join(dir, 'out'));
      expect(regenerated).not.toEqual(await fileTree(GO_GENERATED_DIR));
      expect(regenerated['client.gen.go']).not.toMatch(/PostApiV1WebhooksEndpointsIdRecover/);
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
