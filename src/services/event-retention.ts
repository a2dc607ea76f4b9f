import type { Clock } from '../domain/clock';
import { keyScopeOf } from '../domain/webhooks/idempotency-key';
import { periodic, type Periodic } from '../infra/periodic';
import type { Logger } from '../infra/logger';
import type { Deliveries } from '../persistence/deliveries';
import type { EventRetentionView, Events } from '../persistence/events';
import type { IdempotencyRecords } from '../persistence/idempotency-records';
import type { FifoTurns } from './fifo-turns';

const PURGE_INTERVAL_MS = 3_600_000;
/** An account's oldest events read at once. */
const PURGE_BATCH = 100;

/**
 * An event past EVENT_RETENTION_DAYS goes with its deliveries, round claims, idempotency record and FIFO places. An
 * account's numbers grow with time, so a purge reads each account's oldest events by `{account_id, seq}` up to the
 * first young one: index walks and `_id` deletes only. Retention is at least the idempotency window and bulk recovery's
 * 7 days (config); concurrent purges only repeat deletes.
 */
export class EventRetention {
  constructor(
    private readonly deps: {
      events: Events;
      deliveries: Deliveries;
      idempotency: IdempotencyRecords;
      fifo: Pick<FifoTurns, 'forget'>;
      retentionMs: number;
      logger: Logger;
      clock: Clock;
    },
  ) {}

  start(): Periodic {
    const purge = async () => {
      const removed = await this.purge();
      if (removed > 0) this.deps.logger.info({ removed }, 'removed events past their retention');
    };
    return periodic(purge, PURGE_INTERVAL_MS, (err) => this.deps.logger.warn({ err }, 'event retention purge failed; will retry'), { now: true });
  }

  async purge(): Promise<number> {
    const cutoff = this.deps.clock().getTime() - this.deps.retentionMs;
    let removed = 0;
    for (const accountId of await this.deps.events.sequences.accounts()) removed += await this.purgeAccount(accountId, cutoff);
    return removed;
  }

  private async purgeAccount(accountId: string, cutoff: number): Promise<number> {
    let removed = 0;
    for (;;) {
      const views = await this.deps.events.oldest(accountId, PURGE_BATCH);
      const young = views.findIndex((v) => v.created_at.getTime() >= cutoff);
      const gone = young < 0 ? views : views.slice(0, young);
      await this.remove(gone);
      removed += gone.length;
      if (gone.length < PURGE_BATCH) return removed;
    }
  }

  private async remove(gone: EventRetentionView[]): Promise<void> {
    if (gone.length === 0) return;
    // Before the deliveries go: the queues' heads pass over the places by their records.
    await this.deps.fifo.forget(gone);
    await this.deps.deliveries.deleteForEvents(gone);
    await Promise.all(gone.map((e) => e.idempotency_key !== null && this.deps.idempotency.purge(keyScopeOf(e.account_id, e), e.idempotency_key, e._id)));
    await this.deps.events.deleteAll(gone);
  }
}
