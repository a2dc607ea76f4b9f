import { createLogger } from '../../../src/infra/logger';
import type { WorkerLoadDoc, WorkerLoads } from '../../../src/persistence/worker-loads';
import { LaggingAccounts, WorkerLoadPublisher } from '../../../src/services/lagging-accounts';
import { AccountLags } from '../../../src/domain/flow-control/account-lags';

/** An in-memory worker_loads collection (the real one is covered by the integration tests). */
function memoryLoads() {
  const docs = new Map<string, WorkerLoadDoc>();
  const loads = {
    renew: async (doc: WorkerLoadDoc) => void docs.set(doc._id, doc),
    publishedSince: async (since: Date) => [...docs.values()].filter((d) => d.at >= since),
    remove: async (id: string) => void docs.delete(id),
  } as unknown as WorkerLoads;
  return { loads, docs };
}

describe('worker loads: published by workers, read by API processes', () => {
  const logger = createLogger('silent');

  it('refuses a share of the new events of the accounts a worker published past the bound, and none of the others', async () => {
    const now = 100_000;
    const { loads } = memoryLoads();
    const lags = new AccountLags(5_000, () => now);
    lags.record('late', 3_000);
    lags.record('prompt', 40);
    await new WorkerLoadPublisher(loads, lags, 2_000, logger, () => now).publish();
    let draw = 0;
    const lagging = new LaggingAccounts(loads, 2_000, logger, () => now, () => draw);
    await lagging.refresh();
    draw = 0.99;
    expect([lagging.refuses('late'), lagging.refuses('prompt')]).toEqual([true, false]);
    draw = 0;
    expect(lagging.refuses('late')).toBe(false);
  });

  it('ignores the load of a worker that stopped publishing a few seconds ago', async () => {
    let now = 100_000;
    const { loads } = memoryLoads();
    const lags = new AccountLags(5_000, () => now);
    lags.record('late', 3_000);
    await new WorkerLoadPublisher(loads, lags, 2_000, logger, () => now).publish();
    now += 6_000;
    const lagging = new LaggingAccounts(loads, 2_000, logger, () => now, () => 0.99);
    await lagging.refresh();
    expect(lagging.refuses('late')).toBe(false);
  });

  it('removes its load when the worker stops', async () => {
    const { loads, docs } = memoryLoads();
    const publisher = new WorkerLoadPublisher(loads, new AccountLags(5_000), 2_000, logger);
    await publisher.publish();
    await publisher.stop();
    expect(docs.size).toBe(0);
  });
});
