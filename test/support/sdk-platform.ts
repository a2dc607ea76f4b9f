import type { Platform } from '../../src/main/platform';
import { createAccountWithKey, startTestPlatform } from './platform';

/** What an SDK's own suite is told about the platform it runs against. */
export interface SdkSuiteEnv extends Record<string, string> {
  PLATFORM_URL: string;
  /** A `weh` key of an Enterprise account (no limit a suite would meet). */
  PLATFORM_API_KEY: string;
  /** A `weh` key of a fresh Free-tier account: its burst limit (10 a minute) is the suite's 429. */
  PLATFORM_FREE_API_KEY: string;
  /** The certificate (and its key) for 127.0.0.1 that the platform trusts, for the suite's HTTPS receivers. */
  TLS_CERT: string;
  TLS_KEY: string;
}

/**
 * For a describe block: a platform on its own database (both roles), started before its tests and
 * stopped after them, with the accounts and keys an SDK suite needs.
 */
export function sdkSuitePlatform() {
  const fixture = { platform: undefined as unknown as Platform, env: undefined as unknown as SdkSuiteEnv };
  beforeAll(async () => {
    fixture.platform = await startTestPlatform();
    const certFile = process.env.NODE_EXTRA_CA_CERTS;
    if (!certFile) throw new Error('NODE_EXTRA_CA_CERTS is not set: run the tests through `npm test`');
    fixture.env = {
      PLATFORM_URL: fixture.platform.apiUrl as string,
      PLATFORM_API_KEY: (await createAccountWithKey(fixture.platform)).key,
      PLATFORM_FREE_API_KEY: (await createAccountWithKey(fixture.platform, { tier: 'free' })).key,
      TLS_CERT: certFile,
      TLS_KEY: certFile.replace(/\.pem$/, '.key'),
    };
  }, 120_000);
  afterAll(async () => {
    await fixture.platform?.stop();
  });
  return fixture;
}
