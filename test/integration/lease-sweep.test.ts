import type { Platform } from '../../src/main/platform';
import type { ApiInstanceDoc } from '../../src/persistence/api-instances';
import { EventsAwaitingHandOver } from '../../src/persistence/events-awaiting-hand-over';
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
    return { _id: id, expires_at: new Date(now.getTime() + expiresInMs), watermark: 0, started_at: now, renewed_at: now, host: 'stalled-host', pid: 1 };
  }

  const leaseOf = async (id: string) => (await platform.repositories.apiInstances.list()).find((l) => l._id === id);

  it('keeps a lease renewed between the sweep reading it expired and removing it', async () => {
    const instances = platform.repositories.apiInstances;
    await instances.renew(lease('api_stalled_then_renewed', -10_000));
    // Held after list(), where it starts handing the expired lease's events over (the renewals' head searches pass a known id).
    const gate = holdMethod(platform.repositories.events.ids, 'head', { when: (known) => known === undefined });
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
    const dead = { ...lease('api_late_write', -10_000), watermark: await events.ids.head() };
    await apiInstances.renew(dead);
    let claimed!: () => void;
    const idClaimed = new Promise<void>((resolve) => (claimed = resolve));
    let land!: () => void;
    const landing = new Promise<void>((resolve) => (land = resolve));
    // The dead process's last ingest: its id is claimed, its event still on its way to the store.
    const inserting = events.insertWithNextId(
      { account_id: 'acct_late_write', type: 'late.write', data: {}, timestamp: 0, idempotency_key: null, endpoint_ids: ['ep_late_write'], endpoint_urls: ['https://example.com/'], created_at: new Date() },
      (id) => JSON.stringify({ id }),
      { instanceId: dead._id, awaiting: new EventsAwaitingHandOver() },
      async () => {
        claimed();
        await landing;
        return {};
      },
    );
    await idClaimed;
    expect(await platform.services.recovery.sweep()).toBe(0);
    land();
    await inserting;
    expect(await platform.services.recovery.sweep()).toBe(1);
    expect(await leaseOf(dead._id)).toBeDefined();
    expect(await platform.services.recovery.sweep()).toBe(0);
  });
});
