/** However long the queue, a throttled attempt asks again within the retry schedule's 5-minute step. */
const MAX_QUEUED_WAIT_MS = 5 * 60_000;
/** A throttled attempt not back this long after its wait is gone (cancelled, or its worker stopped). */
const RETURN_GRACE_MS = 30_000;
const MAX_THROTTLED_WAIT_MS = 60_000;

/** Wait before asking again after `tries` refusals: doubling from 1 s to a minute, half of it random so they do not return together. */
export function throttledRetryDelayMs(tries: number, random: number): number {
  const base = Math.min(MAX_THROTTLED_WAIT_MS, 1_000 * 2 ** Math.max(0, tries - 1));
  return Math.round(base / 2 + (random * base) / 2);
}

/** The least wait before asking again: one place's time once places are seen freeing at `perSecond`, else the doubling back-off. */
export function throttleFloorMs(perSecond: number, tries: number, random: number): number {
  return perSecond > 0 ? Math.min(1000, 1000 / perSecond) : throttledRetryDelayMs(tries, random);
}

/** A waiting delivery: when it is due back, and its place in its key's queue (the order it was first throttled in). */
interface Turn {
  due: number;
  place: number;
}

/**
 * Per key (an account's places, an endpoint's limits), the deliveries told to wait, each for its turn at the pace places free:
 * asking sooner is refused again, and every ask is a round trip through Temporal (the throttled attempts of an account whose
 * receivers hang asked about 9 times a second, and a neighbour's flood lost 13 % of its deliveries). A delivery refused
 * again keeps its place, so the first throttled are served first (AttemptSlots lets them in before fresh attempts).
 */
export class ThrottledTurns {
  /** Per key, the waiting deliveries in the order they were first throttled. */
  private readonly queues = new Map<string, Map<string, Turn>>();
  private places = 0;
  private prunedAt = 0;

  constructor(
    private readonly now: () => number = Date.now,
    /** Told when the last of a key's deliveries was dropped as gone: nothing of it has waited since `at`, the latest due of them. */
    private readonly onGone: (key: string, at: number) => void = () => undefined,
  ) {}

  /** Keys with deliveries waiting. */
  get keys(): number {
    return this.queues.size;
  }

  /**
   * Counts `delivery` as waiting under `key`; its wait: its turn at `perSecond` places freed (0: unknown), at least `floorMs`.
   * Its turn comes after the deliveries throttled before it: all of the key's for a new one, those ahead of it for one back.
   */
  wait(key: string, delivery: string, perSecond: number, floorMs: number, random: number): number {
    const now = this.now();
    this.prune(now);
    const queue = this.queues.get(key) ?? new Map<string, Turn>();
    this.queues.set(key, queue);
    const known = queue.get(delivery);
    const turn = known ?? { due: now, place: this.places++ };
    const ahead = known ? this.ahead(queue, delivery) : queue.size;
    const turnMs = perSecond > 0 ? Math.min(MAX_QUEUED_WAIT_MS, (ahead / perSecond) * 1000) : 0;
    const delay = Math.max(floorMs, Math.round(turnMs / 2 + (random * turnMs) / 2));
    turn.due = now + delay;
    queue.set(delivery, turn);
    return delay;
  }

  /** The delivery's place among the key's waiting ones (lower: throttled first), or undefined if it is not waiting. */
  placeOf(key: string, delivery: string): number | undefined {
    return this.queues.get(key)?.get(delivery)?.place;
  }

  /** How many deliveries of `key` wait (those long past due dropped first). */
  waiting(key: string): number {
    this.prune(this.now());
    return this.queues.get(key)?.size ?? 0;
  }

  /** A waiting delivery that got its place no longer waits. */
  served(key: string, delivery: string): void {
    const queue = this.queues.get(key);
    queue?.delete(delivery);
    if (queue?.size === 0) this.queues.delete(key);
  }

  /** Those before the delivery in its queue: a queue's entries are only ever added at the end, so its order is place order. */
  private ahead(queue: Map<string, Turn>, delivery: string): number {
    let ahead = 0;
    for (const other of queue.keys()) {
      if (other === delivery) return ahead;
      ahead++;
    }
    return ahead;
  }

  /** At most once a second, every key's deliveries long past due are dropped, and keys left empty with them. */
  private prune(now: number): void {
    if (now - this.prunedAt < 1_000) return;
    this.prunedAt = now;
    for (const [key, queue] of this.queues) {
      let lastDue = Number.NEGATIVE_INFINITY;
      for (const [delivery, { due }] of queue) {
        if (due + RETURN_GRACE_MS >= now) continue;
        queue.delete(delivery);
        lastDue = Math.max(lastDue, due);
      }
      if (queue.size > 0) continue;
      this.queues.delete(key);
      this.onGone(key, lastDue);
    }
  }
}
