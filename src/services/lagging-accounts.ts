import { randomUUID } from 'node:crypto';
import type { AccountLags } from '../domain/flow-control/account-lags';
import { LagShares, reportedFrom } from '../domain/flow-control/lag-shares';
import type { Logger } from '../infra/logger';
import { periodic, type Periodic } from '../infra/periodic';
import type { WorkerLoads } from '../persistence/worker-loads';

/** How often an API process reads the workers' loads, and how old a load may be to count. */
const READ_EVERY_MS = 250;
const FRESH_FOR_MS = 5_000;
/** Four times a second: what a late account's events add to the queue grows with each step of delay. */
const PUBLISH_EVERY_MS = 250;

/** Accounts the workers publish as behind: an API-only process's outbox empties into Temporal at once, so it sees no lag itself. */
export class LaggingAccounts {
  private readonly shares = new LagShares();

  constructor(
    private readonly loads: WorkerLoads,
    /** MAX_BACKLOG_S: an account past it is late. */
    private readonly boundMs: number,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
    private readonly random: () => number = Math.random,
  ) {}

  /** Whether to refuse this new event of the account: it is late, and the event is outside its share. */
  refuses(accountId: string): boolean {
    const share = this.shares.shareOf(accountId);
    return share < 1 && this.random() >= share;
  }

  async refresh(): Promise<void> {
    const loads = await this.loads.publishedSince(new Date(this.now() - FRESH_FOR_MS));
    const lags = new Map<string, number>();
    for (const load of loads) for (const l of load.lagging) lags.set(l.account_id, Math.max(lags.get(l.account_id) ?? 0, l.lag_ms));
    this.shares.step(lags, this.boundMs);
  }

  start(): Periodic {
    return periodic(() => this.refresh(), READ_EVERY_MS, (err) => this.logger.warn({ err }, "could not read the workers' loads; admission goes on with the last ones read"));
  }
}

/** This worker's accounts lagging past half `boundMs` (account-lags.ts), read by LaggingAccounts. */
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
    await this.loads.renew({ _id: this.id, at: new Date(this.now()), lagging });
  }

  start(): void {
    this.loop ??= periodic(() => this.publish(), PUBLISH_EVERY_MS, (err) => this.logger.warn({ err }, "could not publish this worker's load; will retry"));
  }

  async stop(): Promise<void> {
    await this.loop?.stop();
    await this.loads.remove(this.id).catch(() => undefined);
  }
}
