import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import type { Platform } from '../../src/main/platform';
import type { ApiInstanceDoc } from '../../src/persistence/api-instances';
import { EventsAwaitingHandOver } from '../../src/persistence/events-awaiting-hand-over';
import { ownerTag } from '../../src/persistence/events';
import { LATE_WRITE_MS } from '../../src/services/crash-recovery';
import { holdMethod } from '../support/gate';
import { startTestPlatform } from '../support/platform';

/**
 * Crash recovery removes a dead process's lease once it has handed its
 * events over and a write it sent before dying can no longer land, but a process that renews
 * its lease meanwhile is alive and must keep it (without a lease, nothing would recover its
 * events if it then died).
 */
describe('the crash sweep and a lease renewed under it', () => {
  let platform: Platform;

  beforeAll(async () => {
    // Sweeps only when the test calls one (the first, at start-up, runs before any lease below exists).
    platform = await startTestPlatform({ roles: { api: true, worker: false }, env: { DISPATCH_SWEEP_INTERVAL_MS: '3600000' } });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  function lease(id: string, expiresInMs: number): ApiInstanceDoc {
    const now = new Date();
    return { _id: id, expires_at: new Date(now.getTime() + expiresInMs), watermark: 0, batch: 1, started_at: now, renewed_at: now, host: 'stalled-host', pid: 1 };
  }

  const leaseOf = async (id: string) => (await platform.repositories.apiInstances.list()).find((l) => l._id === id);

  it('keeps a lease renewed between the sweep reading it expired and removing it', async () => {
    const instances = platform.repositories.apiInstances;
    await instances.renew(lease('api_stalled_then_renewed', -10_000));
    // Held after list(), where it reads the expired lease's batches.
    const gate = holdMethod(platform.repositories.events, 'owedBy', { when: (owner) => owner === ownerTag('api_stalled_then_renewed', 1) });
    try {
      const sweeping = platform.services.recovery.sweep();
      await gate.reached;
      const renewed = lease('api_stalled_then_renewed', 60_000);
      await instances.renew(renewed);
      gate.open();
      await sweeping;
      expect((await leaseOf('api_stalled_then_renewed'))?.expires_at).toEqual(renewed.expires_at);
    } finally {
      gate.restore();
    }
  });

  it('removes a lease that stayed expired past the time a write sent before the death may land', async () => {
    await platform.repositories.apiInstances.renew(lease('api_dead', -(LATE_WRITE_MS + 10_000)));
    await platform.services.recovery.sweep();
    expect(await leaseOf('api_dead')).toBeUndefined();
  });

  it('the store removes a lease only while it still expires at the value read (checked on the embedded store)', async () => {
    const instances = platform.repositories.apiInstances;
    const read = lease('api_conditional', -10_000);
    await instances.renew(read);
    const renewed = lease('api_conditional', 60_000);
    await instances.renew(renewed);
    expect(await instances.remove(read._id, { expires_at: read.expires_at })).toBe(false);
    expect((await leaseOf(read._id))?.expires_at).toEqual(renewed.expires_at);
    expect(await instances.remove(read._id, { expires_at: renewed.expires_at })).toBe(true);
    expect(await leaseOf(read._id)).toBeUndefined();
  });

  it('recovers an event whose insert the store took only after the sweep that first found its process dead, and keeps the lease meanwhile', async () => {
    const { events, apiInstances } = platform.repositories;
    const dead = { ...lease('api_late_write', -10_000), watermark: 2, batch: 3 };
    await apiInstances.renew(dead);
    const awaiting = new EventsAwaitingHandOver();
    awaiting.openBatch(3);
    let numbered!: () => void;
    const idNumbered = new Promise<void>((resolve) => (numbered = resolve));
    let land!: () => void;
    const landing = new Promise<void>((resolve) => (land = resolve));
    // The dead process's last ingest: its id and number taken, its event still on its way to the store.
    const inserting = events.insertWithNextId(
      { account_id: 'acct_late_write', type: 'late.write', data: {}, timestamp: 0, idempotency_key: null, endpoint_ids: ['ep_late_write'], endpoint_urls: ['https://example.com/'], created_at: new Date() },
      (id) => JSON.stringify({ id }),
      { instanceId: dead._id, awaiting },
      async () => {
        numbered();
        await landing;
        return {};
      },
    );
    await idNumbered;
    expect(await platform.services.recovery.sweep()).toBe(0);
    land();
    expect((await inserting).owner).toBe(ownerTag(dead._id, 3));
    expect(await platform.services.recovery.sweep()).toBe(1);
    expect(await leaseOf(dead._id)).toBeDefined();
    expect(await platform.services.recovery.sweep()).toBe(0);
  });

  it("reads only the batches the dead lease names above its watermark: an event of a batch it handed over is not its to recover", async () => {
    const { events, apiInstances } = platform.repositories;
    const dead = { ...lease('api_batches', -10_000), watermark: 4, batch: 6 };
    await apiInstances.renew(dead);
    const store = async (batch: number) => {
      const awaiting = new EventsAwaitingHandOver();
      awaiting.openBatch(batch);
      const doc = { account_id: 'acct_batches', type: 'batch.test', data: {}, timestamp: 0, idempotency_key: null, endpoint_ids: ['ep_batches'], endpoint_urls: ['https://example.com/'], created_at: new Date() };
      return (await events.insertWithNextId(doc, (id) => JSON.stringify({ id }), { instanceId: dead._id, awaiting }))._id;
    };
    const handedOver = await store(4);
    const owed = [await store(5), await store(6)];
    expect(await platform.services.recovery.sweep()).toBe(2);
    const started = async (id: number) => platform.temporal.workflow.getHandle(deliveryId(id, 'ep_batches')).describe().then(() => true, () => false);
    expect(await Promise.all([handedOver, ...owed].map(started))).toEqual([false, true, true]);
  });
});
