import type { Platform } from '../../src/main/platform';
import { signedUpWithKey } from '../support/dashboard-user';
import { startTestPlatform } from '../support/platform';

/** The dashboard's estimator prices what POST /api/cost-estimator prices: from the digits typed, never their nearest double (CONTRACT §5). */
describe('dashboard: the cost estimator', () => {
  let platform: Platform;

  beforeAll(async () => {
    platform = await startTestPlatform({ roles: { api: true, worker: false }, env: { TRUST_PROXY: 'true' } });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  const VISION = 'azure|Azure%20AI%20Vision|Image%20Analysis%20S1';
  const EC2 = 'aws|Amazon%20EC2|t3.micro';
  const pageOf = (entry: string, fields: Record<string, string>) =>
    `/dashboard/cost-estimator?${new URLSearchParams({ rows: '1', entry_0: entry, ...fields, estimate: '1' })}`;
  const totalIn = (text: string) => /data-testid="total-monthly">([^<]*)</.exec(text)?.[1];

  it('prices a quantity a double would round up from its digits, as the API does', async () => {
    const { client, api } = await signedUpWithKey(platform);
    const quantity = '1.0049999999999999';
    const item = { provider: 'azure', service: 'Azure AI Vision', instance: 'Image Analysis S1' };
    const fromApi = await api.post('/api/cost-estimator', `{"items":[${JSON.stringify(item).slice(0, -1)},"quantity":${quantity}}]}`);
    expect(fromApi.body.totalMonthlyUsd).toBe(1);

    const page = await client.get(pageOf(VISION, { quantity_0: quantity }));
    expect(page.status).toBe(200);
    expect(totalIn(page.text)).toBe('$1.00');
  });

  it('refuses hours past 744 by their digits, as the API does, where their nearest double is 744', async () => {
    const { client } = await signedUpWithKey(platform);
    const page = await client.get(pageOf(EC2, { quantity_0: '1', hours_0: '744.0000000000000001' }));
    expect(page.status).toBe(400);
    expect(totalIn(page.text)).toBeUndefined();
    expect(page.text).toContain('Item 1');
  });
});
