import type { BurstWindow } from '../domain/limits/burst-window';
import { ExpiringCollection, type ExpiringDoc } from './expiring-collection';
import { unlessIdTaken } from './mongo';

/** A bucket's current burst window and `n`, the calls taken of it. */
interface WindowDoc extends BurstWindow, ExpiringDoc {
  n: number;
}

/** How long a window's document outlives the window (then the TTL index deletes it). */
const RETENTION_MS = 60_000;

/** One document per bucket, `_id` the bucket: its burst window as a counter; the next window replaces it. */
export class LimitWindows extends ExpiringCollection<WindowDoc>('limit_windows') {
  /** The bucket's window that has not ended by `next.start`, or else `next`, opened with nothing taken. */
  async current(bucket: string, next: BurstWindow): Promise<BurstWindow> {
    const expiresAt = new Date(next.end.getTime() + RETENTION_MS);
    // Null: the bucket's window has not ended (the upsert's insert met its `_id`).
    const opened = await unlessIdTaken(() =>
      this.col.findOneAndUpdate(
        { _id: bucket, end: { $lte: next.start } },
        { $set: { start: next.start, end: next.end, n: 0, expires_at: expiresAt } },
        { upsert: true, returnDocument: 'after' },
      ),
    );
    if (opened) return { start: opened.start, end: opened.end };
    const open = await this.col.findOne({ _id: bucket }, { projection: { start: 1, end: 1 } });
    return open ? { start: open.start, end: open.end } : this.current(bucket, next);
  }

  /** Adds `delta` calls (negative: gives them back) to `window`: the count after, or null when the bucket has moved on to another window. */
  async add(bucket: string, window: BurstWindow, delta: number): Promise<number | null> {
    const doc = await this.col.findOneAndUpdate({ _id: bucket, start: window.start }, { $inc: { n: delta } }, { returnDocument: 'after' });
    return doc?.n ?? null;
  }
}
