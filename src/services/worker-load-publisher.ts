import { randomUUID } from 'node:crypto';
import type { AccountLags } from '../domain/flow-control/account-lags';
import { reportedFrom } from '../domain/flow-control/lag-shares';
import type { Logger } from '../infra/logger';
import { periodic, type Periodic } from '../infra/periodic';
import type { WorkerLoads } from '../persistence/worker-loads';

/** Four times a second: what a late account's events add to the queue grows with each step of delay. */
const PUBLISH_EVERY_MS = 250;

/** This worker's accounts lagging past half `boundMs` (account-lags.ts), read by lagging-accounts.ts. */
export class WorkerLoadPublisher {
  readonly id = `worker_${randomUUID().replace(/-/g, '')}`;
  private loop?: Periodic;

  constructor(
    private readonly loads: WorkerLoads,
    private readonly lags: AccountLags,
    private readonly boundMs: number,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  async publish(): Promise<void> {
    const lagging = this.lags.over(reportedFrom(this.boundMs)).map((l) => ({ account_id: l.accountId, lag_ms: Math.round(l.lagMs) }));
    await this.loads.publish({ _id: this.id, at: new Date(this.now()), lagging });
  }

  start(): void {
    this.loop ??= periodic(() => this.publish(), PUBLISH_EVERY_MS, (err) => this.logger.warn({ err }, "could not publish this worker's load; will retry"));
  }

  async stop(): Promise<void> {
    await this.loop?.stop();
    await this.loads.remove(this.id).catch(() => undefined);
  }
}
