/** However long the queue, a throttled attempt asks again within the retry schedule's 5-minute step. */
const MAX_QUEUED_WAIT_MS = 5 * 60_000;
/** A throttled attempt not back this long after its wait is gone (cancelled, or its worker stopped). */
const RETURN_GRACE_MS = 30_000;

/**
 * The deliveries told to wait for a place, per key (an account's places, an endpoint's limits), and when each is due back.
 * A new one waits for those ahead of it to be served at the pace places free: asking sooner would only be refused again,
 * and every ask is a round trip through Temporal (the throttled attempts of an account whose receivers hang asked about 9
 * times a second, and a neighbour's flood lost 13 % of its deliveries). A random half of it, so they do not come back together.
 */
export class ThrottledTurns {
  /** Per key, the waiting deliveries and when each is due back; pruned at most once a second. */
  private readonly queues = new Map<string, { dueBy: Map<string, number>; prunedAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts `delivery` as waiting under `key`; its wait: its turn at `perSecond` places freed (0: unknown), at least `floorMs`. */
  wait(key: string, delivery: string, perSecond: number, floorMs: number, random: number): number {
    const now = this.now();
    const queue = this.queues.get(key) ?? { dueBy: new Map<string, number>(), prunedAt: now };
    this.queues.set(key, queue);
    queue.dueBy.delete(delivery);
    if (now - queue.prunedAt >= 1_000) {
      for (const [other, due] of queue.dueBy) if (due + RETURN_GRACE_MS < now) queue.dueBy.delete(other);
      queue.prunedAt = now;
    }
    const turnMs = perSecond > 0 ? Math.min(MAX_QUEUED_WAIT_MS, (queue.dueBy.size / perSecond) * 1000) : 0;
    const delay = Math.max(floorMs, Math.round(turnMs / 2 + (random * turnMs) / 2));
    queue.dueBy.set(delivery, now + delay);
    return delay;
  }

  /** A waiting delivery that got its place no longer waits. */
  served(key: string, delivery: string): void {
    const queue = this.queues.get(key);
    queue?.dueBy.delete(delivery);
    if (queue?.dueBy.size === 0) this.queues.delete(key);
  }
}
