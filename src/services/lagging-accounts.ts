import type { Logger } from '../infra/logger';
import { periodic, type Periodic } from '../infra/periodic';
import type { WorkerLoads } from '../persistence/worker-loads';

/** How often an API process reads the workers' loads, and how old a load may be to count. */
const READ_EVERY_MS = 1_000;
const FRESH_FOR_MS = 5_000;

/**
 * The accounts whose deliveries the workers see falling behind, as they publish them
 * (worker-load-publisher.ts), read once a second. Ingest admission refuses those accounts: an API
 * process that runs no worker cannot see how late delivery is, and its own outbox empties into
 * Temporal at once, so without this it would accept an account's flood for as long as Temporal takes
 * starts. A worker that stops publishing counts for nothing after a few seconds.
 */
export class LaggingAccounts {
  private lagging = new Set<string>();
  private loop?: Periodic;

  constructor(
    private readonly loads: WorkerLoads,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  isLagging(accountId: string): boolean {
    return this.lagging.has(accountId);
  }

  async refresh(): Promise<void> {
    const loads = await this.loads.publishedSince(new Date(this.now() - FRESH_FOR_MS));
    this.lagging = new Set(loads.flatMap((load) => load.lagging.map((l) => l.account_id)));
  }

  start(): void {
    this.loop ??= periodic(() => this.refresh(), READ_EVERY_MS, (err) => this.logger.warn({ err }, "could not read the workers' loads; admission goes on with the last ones read"));
  }

  async stop(): Promise<void> {
    await this.loop?.stop();
  }
}
