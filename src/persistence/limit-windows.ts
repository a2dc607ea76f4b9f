import type { BurstWindow } from '../domain/limits/burst-window';
import { ExpiringCollection, type ExpiringDoc } from './expiring-collection';
import { claimOnce, memberId, raiseHint, RememberedHeads, type ExpirySweepers } from './store-primitives';

interface WindowDoc extends BurstWindow, ExpiringDoc {
  bucket: string;
}

/** Where a bucket's windows have got to: only a hint, the window documents are the truth. */
interface HeadDoc extends ExpiringDoc {
  seq: number;
}

/** One document per burst window, `_id` bucket#seq, so opening one is a claim; not an AppendLog, as windows expire one by one. */
export class LimitWindows extends ExpiringCollection<WindowDoc>('limit_windows') {
  private readonly heads = this.db.collection<HeadDoc>('limit_window_heads');
  /** The highest seq this process has seen per bucket. */
  private readonly known = new RememberedHeads<{ n: number }>(100_000);

  override async ensureIndexes(expiry: ExpirySweepers): Promise<void> {
    await super.ensureIndexes(expiry);
    await expiry.ensureExpiry(this.heads);
  }

  async latestWindow(bucket: string): Promise<BurstWindow | null> {
    const read = (n: number) => this.col.findOne({ _id: memberId(bucket, n) });
    let seq = this.known.get(bucket)?.n ?? (await this.heads.findOne({ _id: bucket }))?.seq ?? 0;
    let latest = seq > 0 ? await read(seq) : null;
    // Probes seq+1, seq+2, ...: windows grow one or two between reads (exact as in find-head.ts).
    for (;;) {
      const next = await read(seq + 1);
      if (!next) break;
      seq++;
      latest = next;
    }
    this.known.raise(bucket, { n: seq });
    if (latest) return { seq: latest.seq, start: latest.start, end: latest.end };
    // The head outlived its (expired) window: an ended window with its seq, so the next gets a new seq, never old slots.
    return seq > 0 ? { seq, start: new Date(0), end: new Date(0) } : null;
  }

  /** false when another process created window `window.seq` first. */
  async createWindow(bucket: string, window: BurstWindow, expiresAt: Date): Promise<boolean> {
    const doc = { _id: memberId(bucket, window.seq), bucket, seq: window.seq, start: window.start, end: window.end, expires_at: expiresAt };
    if (!(await claimOnce(this.col, doc))) return false;
    this.known.raise(bucket, { n: window.seq });
    await raiseHint(this.heads, bucket, { $max: { seq: window.seq }, $set: { expires_at: expiresAt } });
    return true;
  }
}
