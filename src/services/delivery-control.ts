import type { Clock } from '../domain/clock';
import { DomainError } from '../domain/errors';
import { isFinishedDeliveryStatus } from '../domain/webhooks/delivery-status';
import type { Deliveries } from '../persistence/deliveries';
import type { Endpoints } from '../persistence/endpoints';
import type { Events } from '../persistence/events';
import type { DeliveryScheduler } from '../temporal/delivery-scheduler';
import { requireEndpoint } from './endpoint-service';
import { deliveryOf, deliveryView, type DeliveryView } from './event-service';
import { decodeCursor, encodeCursor } from './pagination';

/** The most deliveries one bulk retry-now wakes (or finds no longer waiting); `next_cursor` continues. */
export const MAX_RETRY_NOW_PER_CALL = 100;
/** Deliveries woken at once by a bulk retry-now, so one call does not flood Temporal. */
const RETRY_NOW_AT_ONCE = 10;

export interface DeliveryControlDeps {
  events: Pick<Events, 'find'>;
  endpoints: Pick<Endpoints, 'find'>;
  deliveries: Pick<Deliveries, 'find' | 'waitingForEndpoint'>;
  scheduler: Pick<DeliveryScheduler, 'retryNow' | 'cancel'>;
  clock: Clock;
}

const isCursor = (v: unknown): v is { after: string } => typeof v === 'object' && v !== null && typeof (v as { after?: unknown }).after === 'string';

/** The run decides: only one awaiting a retry wakes; a cancelled one first records an attempt in flight. */
export class DeliveryControl {
  constructor(private readonly deps: DeliveryControlDeps) {}

  /** The next attempt, at once, with the next attempt number; 409 `delivery_not_waiting` when nothing waits. */
  async retryNow(accountId: string, eventId: number, endpointId: string): Promise<DeliveryView> {
    const { id, urlAtIngest } = await deliveryOf(this.deps.events, accountId, eventId, endpointId);
    const woken = await this.deps.scheduler.retryNow(id);
    if (!woken) throw new DomainError('delivery_not_waiting', `Delivery of event ${eventId} to endpoint ${endpointId} is not waiting for its next attempt.`);
    const view = deliveryView((await this.deps.deliveries.find(id)) ?? undefined, endpointId, urlAtIngest);
    // Until the woken attempt is recorded, the record still names the cancelled timer's time.
    return view.attempt_count < woken.attempt ? { ...view, next_attempt_at: this.deps.clock().toISOString() } : view;
  }

  /** Answers the delivery as recorded when asked; 409 `delivery_ended` when it has ended or no round runs. */
  async cancel(accountId: string, eventId: number, endpointId: string): Promise<DeliveryView> {
    const { id, urlAtIngest } = await deliveryOf(this.deps.events, accountId, eventId, endpointId);
    const delivery = (await this.deps.deliveries.find(id)) ?? undefined;
    if ((delivery && isFinishedDeliveryStatus(delivery.status)) || !(await this.deps.scheduler.cancel(id))) {
      throw new DomainError('delivery_ended', `Delivery of event ${eventId} to endpoint ${endpointId} has ended; there is nothing to cancel.`);
    }
    return deliveryView(delivery, endpointId, urlAtIngest);
  }

  /** Wakes the endpoint's waiting deliveries in id order; `not_waiting`: listed but no longer waiting (in flight, or ended). */
  async retryNowForEndpoint(accountId: string, endpointId: string, cursor?: string) {
    const after = cursor !== undefined ? decodeCursor(cursor, isCursor, 'cursor').after : undefined;
    await requireEndpoint(this.deps.endpoints, accountId, endpointId);
    const ids = await this.deps.deliveries.waitingForEndpoint(endpointId, after, MAX_RETRY_NOW_PER_CALL);
    let woken = 0;
    for (let i = 0; i < ids.length; i += RETRY_NOW_AT_ONCE) {
      const answers = await Promise.all(ids.slice(i, i + RETRY_NOW_AT_ONCE).map((id) => this.deps.scheduler.retryNow(id)));
      woken += answers.filter((a) => a !== null).length;
    }
    const last = ids[ids.length - 1];
    return { woken, not_waiting: ids.length - woken, next_cursor: ids.length === MAX_RETRY_NOW_PER_CALL && last !== undefined ? encodeCursor({ after: last }) : null };
  }
}
