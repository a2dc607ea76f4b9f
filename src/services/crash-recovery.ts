import type { Clock } from '../domain/clock';
import { periodic, type Periodic } from '../infra/periodic';
import type { Logger } from '../infra/logger';
import type { ApiInstanceDoc, ApiInstances } from '../persistence/api-instances';
import type { Events } from '../persistence/events';
import { forEachEventLeftBy } from '../persistence/events-left-behind';
import type { IdempotencyRecords } from '../persistence/idempotency-records';
import type { DeliveryOutbox } from './delivery-outbox';
import type { InstanceLease } from './instance-lease';
import { settleKey } from './key-settlement';

/** A process is dead once its lease expired; recovering twice is harmless (workflow ids are unique). */
export class CrashRecovery {
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
    let recovered = 0;
    for (const lease of dead) recovered += await this.recoverInstance(lease);
    return recovered;
  }

  private async recoverInstance(lease: ApiInstanceDoc): Promise<number> {
    let recovered = 0;
    await forEachEventLeftBy(this.deps.events, lease, async (event) => {
      // An event whose ingest died before its idempotency key was settled is settled now (key-settlement.ts).
      if (event.idempotency_key !== null && (await settleKey(this.deps, event)).answers === 'another') return;
      await this.deps.outbox.enqueue(event);
      if (event.endpoint_ids.length > 0) recovered++;
    });
    // A process that renewed since the list was read is alive and keeps its lease (and what it owes).
    await this.deps.instances.remove(lease._id, { expires_at: lease.expires_at });
    if (recovered > 0) this.deps.logger.warn({ instance: lease._id, recovered }, 'recovered events an API process left undispatched when it died');
    return recovered;
  }
}
