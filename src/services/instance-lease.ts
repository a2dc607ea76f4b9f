import { systemClock } from '../domain/clock';
import { periodic, type Periodic } from '../infra/periodic';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Logger } from '../infra/logger';
import type { ApiInstances } from '../persistence/api-instances';

/** Crash recovery acts only on an expired lease's events (its id is in each), never on a live ingest. */
export class InstanceLease {
  readonly id = `api_${randomUUID().replace(/-/g, '')}`;
  private readonly startedAt = systemClock();
  private loop?: Periodic;

  constructor(
    private readonly deps: {
      instances: ApiInstances;
      /** Recorded with each renewal: crash recovery looks only above it (EventsAwaitingHandOver.handedOverThrough). */
      handedOverThrough: () => Promise<number>;
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
    const watermark = await this.deps.handedOverThrough();
    const now = systemClock();
    await this.deps.instances.renew({
      _id: this.id,
      expires_at: new Date(now.getTime() + this.deps.ttlMs),
      watermark,
      started_at: this.startedAt,
      renewed_at: now,
      host: os.hostname(),
      pid: process.pid,
    });
  }
}
