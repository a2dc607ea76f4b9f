import { Deliveries } from '../../src/persistence/deliveries';
import { openTestDb } from '../support/test-db';

/** Manual-retry round claims on the embedded store: a unique insert per round, a take-over by a conditional update. */
describe('delivery round claims', () => {
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let deliveries: Deliveries;
  const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);

  beforeAll(async () => {
    store = await openTestDb('round_claims');
    deliveries = new Deliveries(store.db);
  });
  afterAll(async () => {
    await store?.close();
  });

  it('one of concurrent retries claims a round', async () => {
    const won = await Promise.all(Array.from({ length: 8 }, () => deliveries.claimRound('delivery-1-a', 2, at(0))));
    expect(won.filter(Boolean)).toHaveLength(1);
  });

  it('a round whose claim is recent is not taken over (its claimer may still be starting it)', async () => {
    await deliveries.claimRound('delivery-2-a', 2, at(0));
    expect(await deliveries.claimRoundRestart('delivery-2-a', 2, at(0), at(1_000))).toBe(false);
  });

  it('a round whose claim is old is taken over by one of concurrent callers, and then not again until that take-over is old', async () => {
    await deliveries.claimRound('delivery-3-a', 2, at(0));
    const won = await Promise.all(Array.from({ length: 8 }, () => deliveries.claimRoundRestart('delivery-3-a', 2, at(60_000), at(60_000))));
    expect(won.filter(Boolean)).toHaveLength(1);
    expect(await deliveries.claimRoundRestart('delivery-3-a', 2, at(60_000), at(60_500))).toBe(false);
    expect(await deliveries.claimRoundRestart('delivery-3-a', 2, at(120_001), at(120_001))).toBe(true);
  });

  it('a first round (started from the outbox, never claimed) is taken over by one caller', async () => {
    const won = await Promise.all(Array.from({ length: 4 }, () => deliveries.claimRoundRestart('delivery-4-a', 1, at(0), at(0))));
    expect(won.filter(Boolean)).toHaveLength(1);
  });
});
