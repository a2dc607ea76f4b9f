/** Round-robin over tenants' FIFO queues: a tenant under an equal share waits at most a round; one over only lengthens its own. */
export class FairQueue<T> {
  /** Tenant → its items, oldest first, with when each came. Map order is the round: a tenant served moves to its end. */
  private readonly queues = new Map<string, Array<{ item: T; since: number }>>();
  private count = 0;

  constructor(private readonly now: () => number = Date.now) {}

  push(tenant: string, item: T): void {
    let queue = this.queues.get(tenant);
    if (!queue) this.queues.set(tenant, (queue = []));
    queue.push({ item, since: this.now() });
    this.count++;
  }

  /** The next tenant's oldest item (and when it came), round-robin, passing over tenants `skip` names; undefined when none can go. */
  shift(skip: (tenant: string) => boolean): { tenant: string; item: T; since: number } | undefined {
    for (const [tenant, queue] of this.queues) {
      if (skip(tenant)) continue;
      const head = queue.shift() as { item: T; since: number };
      this.count--;
      this.queues.delete(tenant);
      if (queue.length > 0) this.queues.set(tenant, queue);
      return { tenant, item: head.item, since: head.since };
    }
    return undefined;
  }

  /** Items that `shift` could take now. */
  ready(skip: (tenant: string) => boolean): number {
    let n = 0;
    for (const [tenant, queue] of this.queues) if (!skip(tenant)) n += queue.length;
    return n;
  }

  get size(): number {
    return this.count;
  }

  get tenants(): number {
    return this.queues.size;
  }

  sizeOf(tenant: string): number {
    return this.queues.get(tenant)?.length ?? 0;
  }

  /** How long the tenant's oldest item has waited (0 when none waits). */
  oldestWaitMs(tenant: string): number {
    const head = this.queues.get(tenant)?.[0];
    return head === undefined ? 0 : Math.max(0, this.now() - head.since);
  }
}
