import type { Clock } from '../domain/clock';
import { keyIssuerOf } from '../domain/webhooks/idempotency-key';
import { periodic, type Periodic } from '../infra/periodic';
import type { Logger } from '../infra/logger';
import type { Deliveries } from '../persistence/deliveries';
import type { EventRetentionView, Events } from '../persistence/events';
import type { IdempotencyRecords } from '../persistence/idempotency-records';
import type { FifoTurns } from './fifo-turns';

const PURGE_INTERVAL_MS = 3_600_000;
/** Most ids examined per step: their reads go out together, their deletes are one command per collection. */
const STEP = 64;

/**
 * An event past EVENT_RETENTION_DAYS goes with its deliveries, round claims, idempotency record and FIFO places. Ids grow
 * with time, so a purge walks up from where the last stopped to the first still young: `_id` lookups and deletes only.
 * Retention is at least the idempotency window and bulk recovery's 7 days (config); concurrent purges only repeat deletes.
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
    const { events, deliveries, idempotency } = this.deps;
    const cutoff = this.deps.clock().getTime() - this.deps.retentionMs;
    const [top, floor] = [await events.ids.head(), await events.ids.mark('floor')];
    let removed = 0;
    // Steps grow from one id: a purge with nothing to do reads one event.
    for (let through = await events.ids.mark('purged'), step = 1; through < top; step = Math.min(STEP, step * 2)) {
      const ids = Array.from({ length: Math.min(step, top - through) }, (_, i) => through + 1 + i);
      const views = await Promise.all(ids.map((id) => events.retentionView(id)));
      let old = 0;
      for (; old < ids.length; old++) {
        // An id without its event (deleted, or its ingest died) is dated by its claim; below the floor it has none.
        const at = views[old]?.created_at ?? (ids[old] > floor ? await events.ids.claimedAt(ids[old]) : null);
        if (at && at.getTime() >= cutoff) break;
      }
      if (old === 0) break;
      const gone = views.slice(0, old).filter((v): v is EventRetentionView => v !== null);
      await this.deps.fifo.forget(gone);
      await deliveries.deleteForEvents(gone);
      await Promise.all(gone.map((e) => e.idempotency_key !== null && idempotency.purge(keyIssuerOf(e.type), e.account_id, e.idempotency_key, e._id)));
      await events.deleteAll(gone);
      through = ids[old - 1];
      await events.ids.retire(through, ids.slice(0, old));
      removed += gone.length;
      if (old < ids.length) break;
    }
    return removed;
  }
}
