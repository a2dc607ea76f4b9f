import { randomUUID } from 'node:crypto';
import type { Logger } from '../infra/logger';
import { deliveryId, Deliveries, DeliveryDoc } from '../persistence/deliveries';
import type { DispatchQueue } from '../persistence/dispatch-queue';
import type { EndpointDoc, Endpoints } from '../persistence/endpoints';
import type { EventDoc, Events } from '../persistence/events';
import type { IdempotencyRecords } from '../persistence/idempotency-records';
import type { DeliveryScheduler } from '../temporal/delivery-scheduler';

/** Tickets older than this belong to an ingest that died (an ingest takes milliseconds). */
const SWEEP_GRACE_MS = 3_000;
const SWEEP_BATCH = 100;
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

/**
 * Turns a stored event into its delivery workflows, crash-safely: a dispatch ticket is
 * written before the event and removed once every workflow has started, so whatever a
 * dying process leaves half done, the sweep finds by its ticket and finishes.
 * Deterministic workflow ids that refuse duplicates make a second dispatch harmless.
 */
export class Dispatcher {
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<void>;

  constructor(
    private readonly events: Events,
    private readonly endpoints: Endpoints,
    private readonly deliveries: Deliveries,
    private readonly idempotency: IdempotencyRecords,
    private readonly queue: DispatchQueue,
    private readonly scheduler: DeliveryScheduler,
    private readonly logger: Logger,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Opens a ticket; the event written next carries it. */
  async openTicket(): Promise<string> {
    const ticket = randomUUID();
    await this.queue.add(ticket, this.clock());
    return ticket;
  }

  async closeTicket(ticket: string): Promise<void> {
    await this.queue.remove(ticket);
  }

  /** Creates the delivery records (if missing), starts one workflow per delivery, closes the ticket. */
  async dispatch(event: EventDoc, endpoints?: EndpointDoc[]): Promise<void> {
    const targets = endpoints ?? (await Promise.all(event.endpoint_ids.map((id) => this.endpoints.find(event.account_id, id))));
    const now = this.clock();
    const docs: DeliveryDoc[] = event.endpoint_ids.map((endpointId, i) => ({
      _id: deliveryId(event._id, endpointId),
      account_id: event.account_id,
      event_id: event._id,
      endpoint_id: endpointId,
      url: targets[i]?.url ?? '',
      event_type: event.type,
      status: 'pending',
      round: 1,
      attempt_count: 0,
      next_attempt_at: now,
      attempts: [],
      created_at: now,
      updated_at: now,
    }));
    await this.deliveries.insertMissing(docs);
    await Promise.all(
      docs.map((d) =>
        this.scheduler.start(
          { workflowId: d._id, eventId: event._id, endpointId: d.endpoint_id, accountId: event.account_id, round: 1, eventType: event.type, url: d.url },
          { manualRetry: false },
        ),
      ),
    );
    await this.queue.remove(event.dispatch_ticket);
  }

  startSweeping(intervalMs: number): void {
    this.timer = setInterval(() => {
      if (this.sweeping) return;
      this.sweeping = this.sweep()
        .then(() => undefined)
        .catch((err) => this.logger.warn({ err }, 'dispatch sweep failed; will retry'))
        .finally(() => (this.sweeping = undefined));
    }, intervalMs);
    this.timer.unref();
  }

  async stopSweeping(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.sweeping;
  }

  /** Finishes every dispatch a crash interrupted. Returns how many events it dispatched. */
  async sweep(): Promise<number> {
    const stale = await this.queue.olderThan(new Date(this.clock().getTime() - SWEEP_GRACE_MS), SWEEP_BATCH);
    let dispatched = 0;
    for (const ticket of stale) {
      const event = await this.events.findByTicket(ticket._id);
      if (!event) {
        // The ingest died before writing its event: nothing was accepted.
        await this.queue.remove(ticket._id);
        continue;
      }
      if (event.idempotency_key !== null && !(await this.ownsIdempotencyKey(event))) {
        // It lost its key to a concurrent ingest before being acknowledged: it never existed for the caller.
        await this.events.delete(event._id);
        await this.queue.remove(ticket._id);
        continue;
      }
      await this.dispatch(event);
      dispatched++;
      this.logger.info({ eventId: event._id }, 'dispatched an event a crash had left undispatched');
    }
    return dispatched;
  }

  /** An event whose ingest died before claiming its idempotency key claims it now, or yields to the holder. */
  private async ownsIdempotencyKey(event: EventDoc): Promise<boolean> {
    const key = event.idempotency_key as string;
    for (;;) {
      const { record, nextGeneration } = await this.idempotency.latest(event.account_id, key);
      if (record && record.expires_at > this.clock()) return record.event_id === event._id;
      if (await this.idempotency.claim(idempotencyRecordFor(event, nextGeneration))) return true;
    }
  }
}

export function ingestResponse(event: EventDoc): Record<string, unknown> {
  return {
    id: event._id,
    type: event.type,
    timestamp: event.timestamp,
    idempotency_key: event.idempotency_key,
    destinations: event.endpoint_ids.length,
  };
}

export function idempotencyRecordFor(event: EventDoc, generation: number) {
  return {
    account_id: event.account_id,
    key: event.idempotency_key as string,
    generation,
    event_id: event._id,
    response: ingestResponse(event),
    created_at: event.created_at,
    expires_at: new Date(event.created_at.getTime() + IDEMPOTENCY_WINDOW_MS),
  };
}
