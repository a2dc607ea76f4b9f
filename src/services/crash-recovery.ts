import type { Clock } from '../domain/clock';
import { periodic, type Periodic } from '../infra/periodic';
import type { Logger } from '../infra/logger';
import type { ApiInstanceDoc, ApiInstances } from '../persistence/api-instances';
import { ownerTag, type Events } from '../persistence/events';
import type { IdempotencyRecords } from '../persistence/idempotency-records';
import type { DeliveryOutbox } from './delivery-outbox';
import type { InstanceLease } from './instance-lease';
import { settleKey } from './key-settlement';

/** How long after a process died an insert it sent may still land: the embedded store's longest wait for a write. */
export const LATE_WRITE_MS = 60_000;
/** Batches read at once while looking for what a dead process left. */
const BATCH_READS_AT_ONCE = 8;

/**
 * A process is dead once its lease expired; recovering twice is harmless (workflow ids are unique). Its events are those
 * of the batches its lease names above its watermark, one indexed read each. The lease is kept through LATE_WRITE_MS,
 * and those batches read again meanwhile, for an insert the process sent before dying.
 */
export class CrashRecovery {
  /** Per dead lease swept here: the events already handed over. */
  private readonly handedOver = new Map<string, Set<number>>();

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
    for (const id of this.handedOver.keys()) if (!dead.some((lease) => lease._id === id)) this.handedOver.delete(id);
    let recovered = 0;
    for (const lease of dead) recovered += await this.recoverInstance(lease, now);
    return recovered;
  }

  private async recoverInstance(lease: ApiInstanceDoc, now: Date): Promise<number> {
    const done = this.handedOver.get(lease._id) ?? new Set<number>();
    this.handedOver.set(lease._id, done);
    const batches = Array.from({ length: Math.max(0, lease.batch - lease.watermark) }, (_, i) => lease.watermark + 1 + i);
    let recovered = 0;
    const recoverNext = async () => {
      for (let batch = batches.shift(); batch !== undefined; batch = batches.shift()) {
        for (const event of await this.deps.events.owedBy(ownerTag(lease._id, batch))) {
          if (done.has(event._id)) continue;
          // An event whose ingest died before its idempotency key was settled is settled now (key-settlement.ts).
          if (event.idempotency_key === null || (await settleKey(this.deps, event)).answers === 'this') {
            await this.deps.outbox.enqueue(event);
            if (event.endpoint_ids.length > 0) recovered++;
          }
          done.add(event._id);
        }
      }
    };
    await Promise.all(Array.from({ length: BATCH_READS_AT_ONCE }, recoverNext));
    // A process that renewed since the list was read is alive and keeps its lease (and what it owes).
    const settled = now.getTime() > lease.expires_at.getTime() + LATE_WRITE_MS;
    if (settled && (await this.deps.instances.remove(lease._id, { expires_at: lease.expires_at }))) this.handedOver.delete(lease._id);
    // Not all were left unstarted: those above its watermark may have been, and their starts are refused as duplicates.
    if (recovered > 0) this.deps.logger.warn({ instance: lease._id, handed_over: recovered }, "handed a dead API process's events past its hand-over mark to the outbox");
    return recovered;
  }
}
