import type { Tier } from '../../src/domain/limits/tiers';
import type { Platform } from '../../src/main/platform';
import { DashboardClient, GOOD_PASSWORD, newEmail } from './dashboard-client';
import { apiClient } from './platform';

/**
 * A person signed up in the dashboard (from an IP of its own), on `tier` (enterprise unless told, so that a test's many
 * calls stay within the burst limit), with a `weh` key of the same account for the API's side of the test.
 */
export async function signedUpWithKey(platform: Platform, tier: Tier = 'enterprise') {
  const client = DashboardClient.fromNewIp(platform.apiUrl!);
  const email = newEmail();
  expect((await client.signUp(email, GOOD_PASSWORD)).status).toBe(303);
  const account = (await platform.repositories.accounts.findByEmail(email))!;
  await platform.services.accounts.setTier(account._id, tier);
  const { key } = await platform.services.accounts.createKey(account._id, 'weh', 'the test');
  return { client, api: apiClient(platform, key), accountId: account._id };
}
