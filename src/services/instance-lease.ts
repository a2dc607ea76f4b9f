import { systemClock } from '../domain/clock';
import { periodic, type Periodic } from '../infra/periodic';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Logger } from '../infra/logger';
import type { ApiInstances } from '../persistence/api-instances';
import type { EventsAwaitingHandOver } from '../persistence/events-awaiting-hand-over';

/** Crash recovery acts only on an expired lease's events (its id is in each), never on a live ingest. */
export class InstanceLease {
  readonly id = `api_${randomUUID().replace(/-/g, '')}`;
  private readonly startedAt = systemClock();
  private loop?: Periodic;

  constructor(
    private readonly deps: {
      instances: ApiInstances;
      /** Each renewal records how far they are handed over, and opens the next batch once the lease has recorded it. */
      awaiting: Pick<EventsAwaitingHandOver, 'batch' | 'handedOverThrough' | 'openBatch'>;
      /** How long a lease lasts without renewal before the process is taken for dead. */
      ttlMs: number;
      logger: Logger;
    },
  ) {}

  async start(): Promise<void> {
    await this.renew();
    // Renewed well within its lifetime, so a slow store does not expire a live process.
    const renewMs = Math.max(250, Math.floor(this.deps.ttlMs / 5));
    this.loop = periodic(() => this.renew(), renewMs, (err) => this.deps.logger.warn({ err }, 'instance lease renewal failed; will retry'));
  }

  /** Stops renewing; `release` removes the lease (only when everything it covers was handed over). */
  async stop(options: { release: boolean }): Promise<void> {
    await this.loop?.stop();
    if (options.release) await this.deps.instances.remove(this.id);
    else await this.renew().catch(() => undefined);
  }

  private async renew(): Promise<void> {
    const { awaiting } = this.deps;
    const batch = awaiting.batch + 1;
    const watermark = awaiting.handedOverThrough();
    const now = systemClock();
    await this.deps.instances.renew({
      _id: this.id,
      expires_at: new Date(now.getTime() + this.deps.ttlMs),
      watermark,
      batch,
      started_at: this.startedAt,
      renewed_at: now,
      host: os.hostname(),
      pid: process.pid,
    });
    awaiting.openBatch(batch);
  }
}
