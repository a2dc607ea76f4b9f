import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generate, GO_GENERATED_DIR } from '../../scripts/sdks/go';
import { libraryTests } from '../support/library-tests';
import { sdkSuitePlatform } from '../support/sdk-platform';
import { runQuickStart } from '../support/sdk-quick-start';
import { DOCUMENT_CHANGES, fileTree, generatedFromChanged } from '../support/sdk-generation';
import { ensureGoSdkToolchain, GO_SDK_DIR } from '../support/sdk-toolchains';

const goTest = (dir: string, env: Record<string, string> = {}) => libraryTests('go', ['test', '-count=1', '-v', './...'], dir, env);
const passed = (out: string) => (out.match(/^\s*--- PASS: /gm) ?? []).length;

describe('Go SDK (sdks/go)', () => {
  beforeAll(() => ensureGoSdkToolchain(() => undefined), 600_000);

  describe('generated client', () => {
    it('is what sdks/openapi.json generates now (`npm run sdks` regenerates it)', async () => {
      const outDir = await mkdtemp(path.join(os.tmpdir(), 'sdk-go-'));
      await generate(outDir);
      expect(await fileTree(outDir)).toEqual(await fileTree(GO_GENERATED_DIR));
    }, 300_000);

    // What each change of DOCUMENT_CHANGES must be seen in.
    const seen = [(code: string) => !/PostApiV1WebhooksEndpointsIdRecover/.test(code), (code: string) => /type SentEvent struct \{(?![^}]*Destinations)/.test(code)];
    it.each(DOCUMENT_CHANGES.map(([name, change], i) => [name, change, seen[i]] as const))(
      'differs from the committed one when %s in the document, so the check above catches it',
      async (_name, change, isSeen) => {
        const regenerated = await generatedFromChanged(change, generate);
        expect(regenerated).not.toEqual(await fileTree(GO_GENERATED_DIR));
        expect(isSeen(regenerated['client.gen.go'])).toBe(true);
      },
      300_000,
    );
  });

  it('passes its unit tests of the retry policy (injected sleep and random, no network)', async () => {
    const out = await goTest(GO_SDK_DIR);
    expect(passed(out)).toBeGreaterThanOrEqual(20);
    expect(out).not.toMatch(/--- FAIL|--- SKIP/);
  }, 300_000);

  describe('against a real platform', () => {
    const fixture = sdkSuitePlatform();

    it('passes every scenario: endpoints, a RabbitMQ endpoint read back without its credentials, event types and a send refused by a schema, tenants and portal sessions, sends, a send retried after a time-out, paging, a delivery, rotation, a 429, end to end', async () => {
      const out = await goTest(path.join(GO_SDK_DIR, 'platformtest'), fixture.env);
      for (const scenario of [
        'TestRegisterAnEndpointThenReadUpdateListAndDeleteIt',
        'TestRegisterARabbitMqEndpointThenReadItBackWithoutItsCredentials',
        'TestRegisterAnEventTypeWithASchemaThenASendThatDoesNotMatchItIsRefused',
        'TestAnEventSentForTenantAReachesAsEndpointOnlyNotTenantBs',
        'TestTenantsAreListedWithTheirEndpointCountsAndATenantsEndpoints',
        'TestDeletingATenantDeletesItsEndpointsAndAnotherTenantsStay',
        'TestAnEndpointMovesToAnotherTenantThenBackToTheAccount',
        'TestAPortalSessionsTokenAsTheClientsKeySeesAndChangesOnlyItsTenantsRecords',
        'TestAReadOnlySessionsTokenReadsAndAChangeIsA403PortalReadOnly',
        'TestRevokingEverySessionEndsATokenAtOnce',
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

    it('runs the README\'s quick start as written, told the platform (on a port other than 3000) by PLATFORM_URL: cmd/send-event sends an event', async () => {
      expect(new URL(fixture.env.PLATFORM_URL).port).not.toBe('3000');
      expect(await runQuickStart('go', fixture.env)).toMatch(/^sent event \d+ to 0 endpoint\(s\)$/m);
    }, 300_000);
  });
});
