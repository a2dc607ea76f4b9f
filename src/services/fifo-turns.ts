import type { Clock } from '../domain/clock';
import { deliveryId } from '../domain/webhooks/delivery-id';
import { isFinishedDeliveryStatus } from '../domain/webhooks/delivery-status';
import { FIFO_VOID_AFTER_MS, isPassedOver, isTurnOf, queueLength, type QueuePlace, type TakenPlace } from '../domain/webhooks/fifo-order';
import type { Deliveries } from '../persistence/deliveries';
import type { EventRetentionView, Events } from '../persistence/events';
import type { FifoQueues, QueueDoc } from '../persistence/fifo-queues';

interface FifoTurnsDeps {
  queues: Pick<FifoQueues, 'take' | 'queue' | 'place' | 'pass' | 'passThrough' | 'markWoken' | 'forget'>;
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
const FIFO_RELEASE_MAX = 1000;
const RELEASE_CONCURRENCY = 16;

/**
 * Places are taken at ingest, before the event is stored; a first attempt goes once the head has reached its place. The
 * head moves on by a conditional update, so of a delivery ending and a newer one passing over places, one moves it past
 * each place, and whoever moves it onto a place holder's turn wakes that holder (or the holder finds it there).
 */
export class FifoTurns {
  constructor(private readonly deps: FifoTurnsDeps) {}

  async placesFor(endpointIds: string[], eventId: number): Promise<Record<string, TakenPlace>> {
    const taken = await Promise.all(endpointIds.map((endpointId) => this.deps.queues.take(endpointId, eventId, this.deps.clock)));
    return Object.fromEntries(endpointIds.map((endpointId, i) => [endpointId, taken[i] as TakenPlace]));
  }

  /** The delivery's place, or null when it has none (its event was ingested while the endpoint was unordered). */
  async placeOf(eventId: number, endpointId: string): Promise<number | null> {
    return (await this.deps.events.findUnscoped(eventId))?.fifo_places?.[endpointId] ?? null;
  }

  /**
   * Whether the delivery's first attempt may be made now: its place (null: none), and the answer. `taken`: its place as
   * taken at ingest (vouched for by the platform); one taken at the head is its turn until it leaves, known with no read.
   */
  async turnOf(eventId: number, endpointId: string, taken?: TakenPlace): Promise<{ place: number | null; now: boolean }> {
    const place = taken ? taken.n : await this.placeOf(eventId, endpointId);
    if (place === null || (taken && isTurnOf(taken.n, taken.head))) return { place, now: true };
    const queue = await this.deps.queues.queue(endpointId);
    return { place, now: !queue || isTurnOf(place, (await this.headOf(endpointId, queue, place)).n) };
  }

  /** The delivery ended: if it held the head, the head moves on and the next holder is woken. Idempotent: a repeat wakes the head again. */
  async leave(eventId: number, endpointId: string, known?: number | null): Promise<void> {
    const place = known ?? (await this.placeOf(eventId, endpointId));
    if (place === null) return;
    const queue = (await this.deps.queues.pass(endpointId, place)) ?? (await this.deps.queues.queue(endpointId));
    // Still below its place: it ended out of turn (cancelled while waiting); the head passes over it when it gets there.
    if (!queue || queue.head <= place) return;
    const head = await this.headOf(endpointId, queue);
    if (head.place) await this.deps.wake(deliveryId(head.place.eventId, endpointId));
  }

  /** The head and length of the endpoint's queue: a few `_id` lookups, whatever its length. */
  async view(endpointId: string) {
    const queue = await this.deps.queues.queue(endpointId);
    if (!queue) return { head_event_id: null, length: 0 };
    const head = await this.headOf(endpointId, queue);
    return { head_event_id: head.place?.eventId ?? null, length: queueLength(head.n, queue.tail) };
  }

  /** Switched to unordered: its queue's deliveries, from the head, are woken to look again and go; none woken by an earlier switch. */
  async release(endpointId: string): Promise<void> {
    const queue = await this.deps.queues.queue(endpointId);
    if (!queue) return;
    // The head too: it may be waiting for a wake-up that was lost.
    const wokenThrough = queue.woken_through ?? 0;
    const through = Math.min(queue.tail, Math.max(queue.head - 1, wokenThrough) + FIFO_RELEASE_MAX);
    if (through < Math.max(queue.head, wokenThrough + 1)) return;
    // Marked first: a switch meanwhile, or a crash here, does not wake them again (a lost wake-up costs its next look at most).
    const from = Math.max(queue.head, (await this.deps.queues.markWoken(endpointId, through)) + 1);
    const places = await Promise.all(Array.from({ length: Math.max(0, through - from + 1) }, (_, i) => this.deps.queues.place(endpointId, from + i)));
    const waiting = places.filter((p): p is QueuePlace => p !== null);
    for (let i = 0; i < waiting.length; i += RELEASE_CONCURRENCY) {
      await Promise.all(waiting.slice(i, i + RELEASE_CONCURRENCY).map((p) => this.deps.wake(deliveryId(p.eventId, endpointId)).catch(() => undefined)));
    }
  }

  /**
   * Retention: the places of these events are passed over (their deliveries ended days ago, or wait on a paused endpoint
   * as they would on their event's removal), then their records go. Places follow ingest, so none behind them is younger.
   */
  async forget(events: Array<Pick<EventRetentionView, 'fifo_places'>>): Promise<void> {
    const places = events.flatMap((e) => Object.entries(e.fifo_places ?? {}).map(([endpointId, n]) => ({ endpointId, n })));
    const highest = new Map<string, number>();
    for (const { endpointId, n } of places) highest.set(endpointId, Math.max(highest.get(endpointId) ?? 0, n));
    for (const [endpointId, n] of highest) {
      const moved = await this.deps.queues.passThrough(endpointId, n);
      const head = moved && (await this.headOf(endpointId, moved));
      if (head?.place) await this.deps.wake(deliveryId(head.place.eventId, endpointId));
    }
    await this.deps.queues.forget(places);
  }

  /**
   * The head, moved past places nobody will leave, up to `own` at most. `place` null: the queue is empty, or the head's
   * holder is not recorded (its ingest is under way, or died): passed over only behind an `own` that has outlived it.
   */
  private async headOf(endpointId: string, queue: QueueDoc, own?: number): Promise<{ n: number; place: QueuePlace | null }> {
    let state: QueueDoc | null = queue;
    while (state && state.head <= Math.min(state.tail, (own ?? Infinity) - 1)) {
      const place = await this.deps.queues.place(endpointId, state.head);
      const passed = place ? await this.passesOver(endpointId, place) : own !== undefined && (await this.outlived(endpointId, own));
      if (!passed) return { n: state.head, place };
      // Null: moved on meanwhile by someone else, read again (the head only goes up).
      state = (await this.deps.queues.pass(endpointId, state.head)) ?? (await this.deps.queues.queue(endpointId));
    }
    return { n: state?.head ?? queue.tail + 1, place: null };
  }

  /** A place whose holder will never leave it (fifo-order.ts isPassedOver). */
  private async passesOver(endpointId: string, place: QueuePlace): Promise<boolean> {
    const now = this.deps.clock();
    const record = await this.deps.deliveries.find(deliveryId(place.eventId, endpointId));
    if (record) return isPassedOver(place, { record: { round: record.round, ended: isFinishedDeliveryStatus(record.status) } }, now);
    if (now.getTime() - place.takenAt.getTime() < FIFO_VOID_AFTER_MS) return false;
    return isPassedOver(place, { record: null, eventStored: (await this.deps.events.findUnscoped(place.eventId)) !== null }, now);
  }

  /** Whether a place below `own` whose holder is not recorded was taken long enough ago to be passed over: before `own` was. */
  private async outlived(endpointId: string, own: number): Promise<boolean> {
    const mine = await this.deps.queues.place(endpointId, own);
    return !mine || this.deps.clock().getTime() - mine.takenAt.getTime() >= FIFO_VOID_AFTER_MS;
  }
}
