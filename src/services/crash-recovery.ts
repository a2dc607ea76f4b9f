import type { Clock } from '../domain/clock';
import { periodic, type Periodic } from '../infra/periodic';
import type { Logger } from '../infra/logger';
import type { ApiInstanceDoc, ApiInstances } from '../persistence/api-instances';
import type { EventDoc, Events } from '../persistence/events';
import { forEachEventLeftBy } from '../persistence/events-left-behind';
import type { IdempotencyRecords } from '../persistence/idempotency-records';
import type { DeliveryOutbox } from './delivery-outbox';
import type { InstanceLease } from './instance-lease';
import { settleKey } from './key-settlement';

/** How long after a process died an insert it sent may still land: the embedded store's longest wait for a write. */
export const LATE_WRITE_MS = 60_000;

/**
 * A process is dead once its lease expired; recovering twice is harmless (workflow ids are unique). Its lease is kept
 * through LATE_WRITE_MS, and the ids it may still have been storing (claimed, no event) are looked up again meanwhile.
 */
export class CrashRecovery {
  /** Per dead lease swept here: the ids of its range that held no event then. */
  private readonly unsettled = new Map<string, number[]>();

  constructor(
    private readonly deps: {
      instances: ApiInstances;
      events: Events;
      idempotency: IdempotencyRecords;
      outbox: DeliveryOutbox;
      self: InstanceLease;
      logger: Logger;
      clock: Clock;
    },
  ) {}

  start(intervalMs: number): Periodic {
    return periodic(() => this.sweep(), intervalMs, (err) => this.deps.logger.warn({ err }, 'crash recovery sweep failed; will retry'), { now: true });
  }

  /** Recovers every instance whose lease has expired; returns how many events it handed over. */
  async sweep(): Promise<number> {
    const now = this.deps.clock();
    const dead = (await this.deps.instances.list()).filter((lease) => lease._id !== this.deps.self.id && lease.expires_at < now);
    for (const id of this.unsettled.keys()) if (!dead.some((lease) => lease._id === id)) this.unsettled.delete(id);
    let recovered = 0;
    for (const lease of dead) recovered += await this.recoverInstance(lease, now);
    return recovered;
  }

  private async recoverInstance(lease: ApiInstanceDoc, now: Date): Promise<number> {
    let recovered = 0;
    const visit = async (event: EventDoc) => {
      // An event whose ingest died before its idempotency key was settled is settled now (key-settlement.ts).
      if (event.idempotency_key !== null && (await settleKey(this.deps, event)).answers === 'another') return;
      await this.deps.outbox.enqueue(event);
      if (event.endpoint_ids.length > 0) recovered++;
    };
    this.unsettled.set(lease._id, await forEachEventLeftBy(this.deps.events, lease, visit, this.unsettled.get(lease._id)));
    // A process that renewed since the list was read is alive and keeps its lease (and what it owes).
    const settled = now.getTime() > lease.expires_at.getTime() + LATE_WRITE_MS;
    if (settled && (await this.deps.instances.remove(lease._id, { expires_at: lease.expires_at }))) this.unsettled.delete(lease._id);
    if (recovered > 0) this.deps.logger.warn({ instance: lease._id, recovered }, 'recovered events an API process left undispatched when it died');
    return recovered;
  }
}
