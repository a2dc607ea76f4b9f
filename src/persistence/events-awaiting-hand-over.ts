/**
 * Events this process stored or may be storing whose workflows have not all started (id → since when and its batch,
 * oldest first). Events are stored tagged with the batch current when they entered (events.ts `ownerTag`); the lease
 * records the batch before any event uses it and, with each renewal, the batches all handed over, so crash recovery
 * reads only the batches in between. Ingests with no id yet keep `settled` false: a lease released then would orphan events.
 */
export class EventsAwaitingHandOver {
  private readonly awaiting = new Map<number, { since: number; batch: number }>();
  private ingests = 0;
  private current = 1;
  private listener: (size: number) => void = () => undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** Told the number waiting after every change (the outbox measures its busy time and wakes a drain). */
  onChange(listener: (size: number) => void): void {
    this.listener = listener;
  }

  /** Returns the event's batch: the current one, or the one it entered with before. */
  enter(id: number): number {
    let entry = this.awaiting.get(id);
    if (!entry) this.awaiting.set(id, (entry = { since: this.now(), batch: this.current }));
    this.listener(this.awaiting.size);
    return entry.batch;
  }

  leave(id: number): void {
    this.awaiting.delete(id);
    this.listener(this.awaiting.size);
  }

  /** An ingest begins; it counts until the returned function is called, once (when its event, if any, has an id here). */
  ingestBegins(): () => void {
    this.ingests++;
    return () => {
      this.ingests--;
      this.listener(this.awaiting.size);
    };
  }

  get size(): number {
    return this.awaiting.size;
  }

  /** Nothing awaits hand-over and no ingest is in flight: nothing this process accepted or may accept is left. */
  get settled(): boolean {
    return this.awaiting.size === 0 && this.ingests === 0;
  }

  oldestSince(): number | null {
    const oldest = this.awaiting.values().next();
    return oldest.done ? null : oldest.value.since;
  }

  get batch(): number {
    return this.current;
  }

  /** Events entered from now on take `batch`, which the lease has recorded. */
  openBatch(batch: number): void {
    this.current = batch;
  }

  /** Every event of a batch up to this one has been handed over; the current batch stays open (an ingest may enter it). */
  handedOverThrough(): number {
    let lowest = this.current;
    for (const { batch } of this.awaiting.values()) if (batch < lowest) lowest = batch;
    return lowest - 1;
  }
}
