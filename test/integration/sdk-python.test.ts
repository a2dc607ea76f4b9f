import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generate, PYTHON_GENERATED_DIR } from '../../scripts/sdks/python';
import { libraryTests } from '../support/library-tests';
import { sdkSuitePlatform } from '../support/sdk-platform';
import { freshPythonEnvironment, runQuickStart } from '../support/sdk-quick-start';
import { DOCUMENT_CHANGES, fileTree, generatedFromChanged } from '../support/sdk-generation';
import { ensurePythonSdkToolchain, PYTHON_SDK_DIR } from '../support/sdk-toolchains';
import { VENV_PYTHON } from '../support/receiver-toolchains';

const pytest = (env: Record<string, string>, ...files: string[]) =>
  libraryTests(VENV_PYTHON, ['-m', 'pytest', '-v', '-p', 'no:cacheprovider', ...files], PYTHON_SDK_DIR, env);

describe('Python SDK (sdks/python)', () => {
  beforeAll(() => ensurePythonSdkToolchain(() => undefined), 600_000);

  describe('generated client', () => {
    it('is what sdks/openapi.json generates now (`npm run sdks` regenerates it)', async () => {
      const outDir = path.join(await mkdtemp(path.join(os.tmpdir(), 'sdk-python-')), 'generated');
      await generate(outDir);
      expect(await fileTree(outDir)).toEqual(await fileTree(PYTHON_GENERATED_DIR));
    }, 120_000);

    // What each change of DOCUMENT_CHANGES must be seen in.
    const seen = [
      (files: Record<string, string>) => !(path.join('api', 'webhook_endpoints', 'post_api_v1_webhooks_endpoints_id_recover.py') in files),
      (files: Record<string, string>) => !/destinations/.test(files[path.join('models', 'sent_event.py')]),
    ];
    it.each(DOCUMENT_CHANGES.map(([name, change], i) => [name, change, seen[i]] as const))(
      'differs from the committed one when %s in the document, so the check above catches it',
      async (_name, change, isSeen) => {
        const regenerated = await generatedFromChanged(change, generate);
        expect(regenerated).not.toEqual(await fileTree(PYTHON_GENERATED_DIR));
        expect(isSeen(regenerated)).toBe(true);
      },
      120_000,
    );
  });

  it('passes its unit tests of the retry policy (injected sleep and random, no network)', async () => {
    const out = await pytest({}, 'tests/test_retry.py');
    expect(Number(/(\d+) passed in/.exec(out)?.[1])).toBeGreaterThanOrEqual(18);
    expect(out).not.toMatch(/\d+ (failed|skipped|errors?)\b/);
  }, 120_000);

  describe('against a real platform', () => {
    const fixture = sdkSuitePlatform();

    it('passes every scenario: endpoints, a RabbitMQ endpoint read back without its credentials, event types and a send refused by a schema, tenants and portal sessions, sends, a send retried after a time-out, paging, a delivery, rotation, a 429, end to end', async () => {
      const out = await pytest(fixture.env, 'tests/test_platform.py');
      for (const scenario of [
        'test_register_an_endpoint_then_read_update_list_and_delete_it',
        'test_recover_takes_an_aware_datetime_and_refuses_a_naive_one_before_sending',
        'test_register_a_rabbitmq_endpoint_then_read_it_back_without_its_credentials',
        'test_register_an_event_type_with_a_schema_then_a_send_that_does_not_match_it_is_refused',
        'test_an_event_sent_for_tenant_a_reaches_a_s_endpoint_only_not_tenant_b_s',
        'test_tenants_are_listed_with_their_endpoint_counts_and_a_tenant_s_endpoints',
        'test_deleting_a_tenant_deletes_its_endpoints_and_another_tenant_s_stay',
        'test_an_endpoint_moves_to_another_tenant_then_back_to_the_account',
        'test_a_portal_session_s_token_as_the_client_s_key_sees_and_changes_only_its_tenant_s_records',
        'test_a_read_only_session_s_token_reads_and_a_change_raises_platform_error_403_portal_read_only',
        'test_revoking_every_session_ends_a_token_at_once',
        'test_the_async_client_lists_tenants_and_revokes_sessions',
        'test_send_events',
        'test_a_send_retried_after_a_time_out_results_in_one_event',
        'test_page_through_events',
        'test_read_a_delivery',
        'test_rotate_a_secret',
        'test_a_429_of_the_free_tier_burst_is_waited_out_within_5_retries',
        'test_end_to_end_a_delivery_sent_with_the_sdk_is_verified_by_the_receiver_library',
      ]) {
        expect(out).toMatch(new RegExp(`${scenario} PASSED`));
      }
      expect(out).not.toMatch(/FAILED|SKIPPED|ERROR|\d+ (failed|skipped|errors?)\b/);
    }, 300_000);

    it('runs the README\'s quick start as written, told the platform (on a port other than 3000) by PLATFORM_URL: pip install, then a send', async () => {
      expect(new URL(fixture.env.PLATFORM_URL).port).not.toBe('3000');
      // The README takes a Python 3.10+ environment as given: a fresh one here, so that its `pip install` is what installs the SDK.
      expect(await runQuickStart('python', fixture.env, await freshPythonEnvironment())).toMatch(/^sent event \d+$/m);
    }, 600_000);
  });
});