import type { Clock } from '../domain/clock';
import { keyIssuerOf } from '../domain/webhooks/idempotency-key';
import { periodic, type Periodic } from '../infra/periodic';
import type { Logger } from '../infra/logger';
import type { Deliveries } from '../persistence/deliveries';
import { blockOf } from '../persistence/event-sequences';
import type { EventRetentionView, Events } from '../persistence/events';
import type { IdempotencyRecords } from '../persistence/idempotency-records';
import type { FifoTurns } from './fifo-turns';

const PURGE_INTERVAL_MS = 3_600_000;

/**
 * An event past EVENT_RETENTION_DAYS goes with its deliveries, round claims, idempotency record and FIFO places. An
 * account's numbers grow with time, so a purge walks each account's blocks up from where the last stopped to the first
 * young event: block reads and `_id` deletes only. Retention is at least the idempotency window and bulk recovery's
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
    const { events } = this.deps;
    const { head, floor } = await events.sequences.bounds(accountId);
    let removed = 0;
    for (let block = floor + 1; block <= blockOf(head); block++) {
      const views = (await events.retentionBlock(accountId, block)).sort((a, b) => a.seq - b.seq);
      const young = views.findIndex((v) => v.created_at.getTime() >= cutoff);
      const gone = young < 0 ? views : views.slice(0, young);
      await this.remove(gone);
      removed += gone.length;
      // A number below an old event's was handed out before it, so its insert, if any, landed or failed long ago:
      // the blocks below this one hold nothing more to wait for.
      if (gone.length > 0 && block - 1 > floor) await events.sequences.removedThrough(accountId, block - 1);
      if (young >= 0) break;
    }
    return removed;
  }

  private async remove(gone: EventRetentionView[]): Promise<void> {
    if (gone.length === 0) return;
    // Before the deliveries go: the queues' heads pass over the places by their records.
    await this.deps.fifo.forget(gone);
    await this.deps.deliveries.deleteForEvents(gone);
    await Promise.all(gone.map((e) => e.idempotency_key !== null && this.deps.idempotency.purge(keyIssuerOf(e.type), e.account_id, e.idempotency_key, e._id)));
    await this.deps.events.deleteAll(gone);
  }
}
