/**
 * Events this process stored or may be storing whose workflows have not all started (id → since when, oldest first).
 * An id is in from before its claim until its insert certainly failed or it is handed over, so `handedOverThrough` never
 * passes one that may be stored. Ingests with no id yet keep `settled` false: a lease released then would orphan events.
 */
export class EventsAwaitingHandOver {
  private readonly since = new Map<number, number>();
  private ingests = 0;
  private listener: (size: number) => void = () => undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** Told the number waiting after every change (the outbox measures its busy time and wakes a drain). */
  onChange(listener: (size: number) => void): void {
    this.listener = listener;
  }

  enter(id: number): void {
    if (!this.since.has(id)) this.since.set(id, this.now());
    this.listener(this.since.size);
  }

  leave(id: number): void {
    this.since.delete(id);
    this.listener(this.since.size);
  }

  /** An ingest begins; it counts until the returned function is called, once (when its event, if any, has an id here). */
  ingestBegins(): () => void {
    this.ingests++;
    return () => {
      this.ingests--;
      this.listener(this.since.size);
    };
  }

  get size(): number {
    return this.since.size;
  }

  /** Nothing awaits hand-over and no ingest is in flight: nothing this process accepted or may accept is left. */
  get settled(): boolean {
    return this.since.size === 0 && this.ingests === 0;
  }

  oldestSince(): number | null {
    const oldest = this.since.values().next();
    return oldest.done ? null : oldest.value;
  }

  /** The highest id through which every event of this process has been handed over, given the highest id it has tried. */
  handedOverThrough(highestIdTried: number): number {
    let min = Infinity;
    for (const id of this.since.keys()) if (id < min) min = id;
    return min === Infinity ? highestIdTried : min - 1;
  }
}
