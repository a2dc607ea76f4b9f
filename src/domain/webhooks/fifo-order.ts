/** FIFO endpoints: deliveries one at a time, in the order of their places (taken at ingest). Pure: workflow code imports it. */

export const ENDPOINT_ORDERINGS = ['unordered', 'fifo'] as const;
export type EndpointOrdering = (typeof ENDPOINT_ORDERINGS)[number];

/** Absent on endpoints stored before ordering existed: unordered. */
export const orderingOf = (endpoint: { ordering?: EndpointOrdering }): EndpointOrdering => endpoint.ordering ?? 'unordered';

/** A place whose event is not stored this long after it was taken is passed over: events are stored within seconds. */
export const FIFO_VOID_AFTER_MS = 120_000;

const RECHECK_FIRST_MS = 60_000;
/** What a lost wake-up costs at most (also how soon a switch to unordered reaches a delivery its release did not wake). */
export const FIFO_RECHECK_MAX_MS = 900_000;

/** The wait before the `looks`-th look (0-based) when no wake-up came: 1, 2, 4, 8 min, then 15 min. */
export function fifoRecheckMs(looks: number): number {
  return Math.min(RECHECK_FIRST_MS * 2 ** Math.min(looks, 10), FIFO_RECHECK_MAX_MS);
}

/** A place in an endpoint's queue: the n-th taken (1-based), for one event. */
export interface QueuePlace {
  n: number;
  eventId: number;
  takenAt: Date;
}

/** A place as taken at ingest: its number and the queue's head then (a place taken at the head is its holder's turn until it leaves). */
export interface TakenPlace {
  n: number;
  head: number;
}

/** What is known of the delivery holding a place when someone else's turn depends on it. */
export interface PlaceHolder {
  /** Its record: the round it is in and whether that round has ended (null: nothing recorded yet). */
  record: { round: number; ended: boolean } | null;
  /** Whether its event is stored (asked only when there is no record). */
  eventStored?: boolean;
}

/** A place nobody will leave is passed over: its first round ended (leave lost, or unordered then) or its event was never stored. */
export function isPassedOver(place: QueuePlace, holder: PlaceHolder, now: Date): boolean {
  if (holder.record) return holder.record.round > 1 || holder.record.ended;
  return holder.eventStored === false && now.getTime() - place.takenAt.getTime() >= FIFO_VOID_AFTER_MS;
}

/** A delivery may be attempted once the queue's head has reached its place: every place before it has ended or was passed over. */
export function isTurnOf(own: number, head: number): boolean {
  return head >= own;
}

/** Deliveries from the head to the newest place, inclusive (one cancelled out of turn is counted until the head passes it). */
export function queueLength(head: number, newest: number): number {
  return Math.max(0, newest - head + 1);
}
