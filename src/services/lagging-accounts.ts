import { LagShares } from '../domain/flow-control/lag-shares';
import type { Logger } from '../infra/logger';
import { periodic, type Periodic } from '../infra/periodic';
import type { WorkerLoads } from '../persistence/worker-loads';

/** How often an API process reads the workers' loads, and how old a load may be to count. */
const READ_EVERY_MS = 250;
const FRESH_FOR_MS = 5_000;

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
