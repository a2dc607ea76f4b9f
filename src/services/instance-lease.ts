import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Logger } from '../infra/logger';
import type { ApiInstances } from '../persistence/api-instances';

export interface InstanceLeaseOptions {
  /** How long a lease lasts without renewal before the process is taken for dead. */
  ttlMs: number;
  /** How often it is renewed (well under ttlMs, so a slow store does not expire a live process). */
  renewMs: number;
}

/**
 * An API process's claim to the events it accepted: written into each event (`owner`) and
 * renewed every few seconds with the outbox watermark. Crash recovery acts only on events whose
 * owner's lease has expired, never on an ingest that is still alive.
 */
export class InstanceLease {
  readonly id = `api_${randomUUID().replace(/-/g, '')}`;
  private readonly startedAt: Date;
  private timer?: NodeJS.Timeout;
  private renewing?: Promise<void>;

  private readonly instances: ApiInstances;
  private readonly watermark: () => Promise<number>;
  private readonly options: InstanceLeaseOptions;
  private readonly logger: Logger;
  private readonly clock: () => Date;

  constructor(deps: {
    instances: ApiInstances;
    /** The outbox watermark recorded with each renewal (see crash-recovery.ts). */
    watermark: () => Promise<number>;
    options: InstanceLeaseOptions;
    logger: Logger;
    clock?: () => Date;
  }) {
    ({ instances: this.instances, watermark: this.watermark, options: this.options, logger: this.logger } = deps);
    this.clock = deps.clock ?? (() => new Date());
    this.startedAt = this.clock();
  }

  get ttlMs(): number {
    return this.options.ttlMs;
  }

  async start(): Promise<void> {
    await this.renew();
    this.timer = setInterval(() => {
      if (this.renewing) return;
      this.renewing = this.renew()
        .catch((err) => this.logger.warn({ err }, 'instance lease renewal failed; will retry'))
        .finally(() => (this.renewing = undefined));
    }, this.options.renewMs);
    this.timer.unref();
  }

  /** Stops renewing; `release` removes the lease (only when everything it covers was handed over). */
  async stop(options: { release: boolean }): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.renewing;
    if (options.release) await this.instances.remove(this.id);
    else await this.renew().catch(() => undefined);
  }

  private async renew(): Promise<void> {
    const watermark = await this.watermark();
    const now = this.clock();
    await this.instances.renew({
      _id: this.id,
      expires_at: new Date(now.getTime() + this.options.ttlMs),
      watermark,
      started_at: this.startedAt,
      renewed_at: now,
      host: os.hostname(),
      pid: process.pid,
    });
  }
}
