import type { Clock } from '../domain/clock';
import { deliveryId } from '../domain/webhooks/delivery-id';
import { isFinishedDeliveryStatus } from '../domain/webhooks/delivery-status';
import { FIFO_VOID_AFTER_MS, isPassedOver, isTurnOf, queueLength, type QueuePlace } from '../domain/webhooks/fifo-order';
import type { Deliveries } from '../persistence/deliveries';
import type { Events } from '../persistence/events';
import type { FifoQueues } from '../persistence/fifo-queues';

export interface FifoTurnsDeps {
  queues: Pick<FifoQueues, 'take' | 'leave' | 'head' | 'newest' | 'prune' | 'placesAfter' | 'wokenThrough' | 'markWoken'>;
  events: Pick<Events, 'findUnscoped'>;
  deliveries: Pick<Deliveries, 'find'>;
  /** Tells a delivery's run that its turn has come (workflows/fifo-turn.ts); a run that has ended is left alone. */
  wake: (workflowId: string) => Promise<void>;
  clock: Clock;
}

/**
 * The deliveries of a queue a switch to unordered wakes at once; those further back go at their next look. Each place is
 * woken by a switch once at most (`woken_through`): switching back and forth wakes only places taken since.
 */
export const FIFO_RELEASE_MAX = 1000;
const RELEASE_CONCURRENCY = 16;

/**
 * Places are taken at ingest, before the event is stored; a first attempt goes only when no lower place is held. Of a
 * leave and a newer delivery's look at once, whichever reads second sees the other's write: none is left waiting.
 */
export class FifoTurns {
  constructor(private readonly deps: FifoTurnsDeps) {}

  async placesFor(endpointIds: string[], eventId: number): Promise<Record<string, number>> {
    const at = this.deps.clock();
    const taken = await Promise.all(endpointIds.map((endpointId) => this.deps.queues.take(endpointId, eventId, at)));
    return Object.fromEntries(endpointIds.map((endpointId, i) => [endpointId, taken[i] as number]));
  }

  /** The delivery's place, or null when it has none (its event was ingested while the endpoint was unordered). */
  async placeOf(eventId: number, endpointId: string): Promise<number | null> {
    return (await this.deps.events.findUnscoped(eventId))?.fifo_places?.[endpointId] ?? null;
  }

  /** Whether the delivery's first attempt may be made now: its place (null: none), and the answer. */
  async turnOf(eventId: number, endpointId: string): Promise<{ place: number | null; now: boolean }> {
    const place = await this.placeOf(eventId, endpointId);
    if (place === null) return { place, now: true };
    // Only the places below its own matter: the search stops there.
    const head = await this.deps.queues.head(endpointId, (p) => (p.n >= place ? Promise.resolve(false) : this.passesOver(endpointId, p)), this.deps.clock());
    return { place, now: isTurnOf(place, head) };
  }

  /** The delivery ended: it leaves its place (taken at or after `acceptedAt`) and, if the head, wakes the next (idempotent). */
  async leave(eventId: number, endpointId: string, known?: number | null, acceptedAt?: Date): Promise<void> {
    const place = known ?? (await this.placeOf(eventId, endpointId));
    if (place === null) return;
    await this.deps.queues.leave(endpointId, place, this.deps.clock(), acceptedAt);
    const head = await this.deps.queues.head(endpointId, (p) => this.passesOver(endpointId, p), this.deps.clock());
    if (head && head.n > place) await this.deps.wake(deliveryId(head.eventId, endpointId));
  }

  /** The head and length of the endpoint's queue: a few `_id` lookups, whatever its length. */
  async view(endpointId: string) {
    const head = await this.deps.queues.head(endpointId, (p) => this.passesOver(endpointId, p), this.deps.clock());
    const newest = head === null ? 0 : await this.deps.queues.newest(endpointId, head);
    return { head_event_id: head?.eventId ?? null, length: queueLength(head, newest) };
  }

  /** Switched to unordered: its queue's deliveries, from the head, are woken to look again and go; none woken by an earlier switch. */
  async release(endpointId: string): Promise<void> {
    const head = await this.deps.queues.head(endpointId, (p) => this.passesOver(endpointId, p), this.deps.clock());
    if (!head) return;
    // The head too: it may be waiting for a wake-up that was lost.
    const from = Math.max(head.n - 1, await this.deps.queues.wokenThrough(endpointId));
    const waiting = await this.deps.queues.placesAfter(endpointId, from, FIFO_RELEASE_MAX);
    const last = waiting[waiting.length - 1];
    if (last === undefined) return;
    // Marked first: a switch meanwhile, or a crash here, does not wake them again (a lost wake-up costs its next look at most).
    await this.deps.queues.markWoken(endpointId, last.n);
    for (let i = 0; i < waiting.length; i += RELEASE_CONCURRENCY) {
      await Promise.all(waiting.slice(i, i + RELEASE_CONCURRENCY).map((p) => this.deps.wake(deliveryId(p.eventId, endpointId)).catch(() => undefined)));
    }
  }

  /** Retention: places and leaves up to `through` go, never past the head, looked for first so that abandoned places go too. */
  async prune(endpointId: string, through: number, minAdvance?: number): Promise<number> {
    await this.deps.queues.head(endpointId, (p) => this.passesOver(endpointId, p), this.deps.clock());
    return this.deps.queues.prune(endpointId, through, this.deps.clock(), minAdvance);
  }

  /** A place whose holder will never leave it (fifo-order.ts isPassedOver). */
  private async passesOver(endpointId: string, place: QueuePlace): Promise<boolean> {
    const now = this.deps.clock();
    const record = await this.deps.deliveries.find(deliveryId(place.eventId, endpointId));
    if (record) return isPassedOver(place, { record: { round: record.round, ended: isFinishedDeliveryStatus(record.status) } }, now);
    if (now.getTime() - place.takenAt.getTime() < FIFO_VOID_AFTER_MS) return false;
    return isPassedOver(place, { record: null, eventStored: (await this.deps.events.findUnscoped(place.eventId)) !== null }, now);
  }
}
