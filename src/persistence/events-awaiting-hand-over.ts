/**
 * The events this process has stored, or may be storing, whose delivery workflows have not all
 * started: id → since when (ms), oldest first. Held in memory, by the process that accepts them.
 *
 * `Events.insertWithNextId` enters an id before its claim is sent and lets it go when the insert
 * certainly failed, so `handedOverThrough` (recorded in the process's instance lease; crash
 * recovery looks only above it, events-left-behind.ts) never passes an event that may already be
 * stored. The outbox lets an id go once the event is handed over, or will not be delivered.
 *
 * An ingest in flight may store an event it has no id for yet (one above every id tried so far,
 * so the watermark is not held for it): it is counted here too, so that `settled` is false until
 * it has ended. A stop's cut calls run on, and a lease released before they end would own
 * events that no crash recovery looks for.
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

  /** An ingest begins; it counts until the returned function is called (once its event, if any, has an id here). */
  ingestBegins(): () => void {
    this.ingests++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
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

  /** When the oldest waiting event entered (ms), or null when none waits. */
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
