import { Collection, Db } from 'mongodb';
import { raiseHint, RememberedHeads } from './store-primitives';

/** An account's events are numbered in blocks: a list page reads a few blocks whatever the history (docs/security.md). */
export const SEQ_BLOCK = 16;
const SEQ_DIGITS = 12;
const padded = (n: number) => String(n).padStart(SEQ_DIGITS, '0');

/** Unique across accounts: what the event's insert claims. */
export const seqKey = (accountId: string, seq: number): string => `${accountId}#${padded(seq)}`;
/** What a list reads: the block's events, by one equality. */
export const blockKey = (accountId: string, block: number): string => `${accountId}#${padded(block)}`;
export const blockOf = (seq: number): number => Math.floor(seq / SEQ_BLOCK);

/** Far below the shortest retention (config.ts): a head this young is above every number retention has removed. */
export const HEAD_TRUST_MS = 3_600_000;
const HEADS_KEPT = 10_000;

/** Lower bounds raised with `$max` (raise-hint.ts); `floor_block`: retention removed the blocks up to it. */
interface AccountMarksDoc {
  _id: string;
  head_block?: number;
  floor_block?: number;
}

export class EventSequences<T extends { seq: number }> {
  private readonly marks: Collection<AccountMarksDoc>;
  /** Per account, the highest number this process knows to be taken (or has handed out). */
  private readonly heads: RememberedHeads<{ n: number }>;
  /** Per account, the highest block this process has announced in `head_block`. */
  private readonly announced = new Map<string, number>();

  constructor(
    db: Db,
    private readonly readBlock: (accountId: string, block: number) => Promise<T[]>,
    now: () => number = Date.now,
  ) {
    this.marks = db.collection<AccountMarksDoc>('event_seq_marks');
    this.heads = new RememberedHeads(HEADS_KEPT, { ms: HEAD_TRUST_MS, now });
  }

  /** A number for the account's next event: above every number this process knows to be taken. */
  async next(accountId: string): Promise<number> {
    const head = await this.heads.trusted(accountId, this.search(accountId));
    return this.heads.advance(accountId, head);
  }

  /** `seq` was taken by another process: the head is learned again (from the marks, or that block if higher). */
  async taken(accountId: string, seq: number): Promise<void> {
    await this.heads.learn(accountId, this.search(accountId, blockOf(seq)), blockOf(seq) === 0);
  }

  /** The first event of a block raises the head mark; never throws: a lost mark costs a list a block read. */
  async landed(accountId: string, seq: number): Promise<void> {
    const block = blockOf(seq);
    const before = this.announced.get(accountId) ?? 0;
    if (block <= before) return;
    if (this.announced.size >= HEADS_KEPT) this.announced.clear();
    this.announced.set(accountId, block);
    try {
      await raiseHint(this.marks, accountId, { $max: { head_block: block } });
    } catch {
      if (this.announced.get(accountId) === block) this.announced.set(accountId, before);
    }
  }

  /** Retention removed the account's events up to `seq`: blocks below its block are not read again. */
  async removedThrough(accountId: string, seq: number): Promise<void> {
    if (blockOf(seq) > 0) await raiseHint(this.marks, accountId, { $max: { floor_block: blockOf(seq) - 1 } });
  }

  /**
   * Where a list starts: the account's highest number (or one below the first free block), from the marks and by reading
   * blocks upward (usually two, from `atLeast` if higher, `read` for reuse); blocks up to `floor` were removed (-1: none).
   */
  async bounds(accountId: string, atLeast = 0): Promise<{ head: number; floor: number; read: Map<number, T[]> }> {
    const marks = await this.marks.findOne({ _id: accountId });
    const floor = marks?.floor_block ?? -1;
    const known = this.heads.get(accountId);
    const from = Math.max(marks?.head_block ?? 0, floor + 1, known ? blockOf(known.n) : 0, atLeast);
    const read = new Map<number, T[]>();
    let head = from * SEQ_BLOCK - 1;
    // Up to the first empty block above `from` (blocks fill in order); `from` may be empty.
    for (let block = from; ; block++) {
      const docs = await this.readBlock(accountId, block);
      read.set(block, docs);
      if (docs.length === 0 && block > from) return { head, floor, read };
      for (const d of docs) head = Math.max(head, d.seq);
    }
  }

  async floor(accountId: string): Promise<number> {
    return (await this.marks.findOne({ _id: accountId }))?.floor_block ?? -1;
  }

  private search(accountId: string, from = 0): () => Promise<{ n: number }> {
    return async () => ({ n: (await this.bounds(accountId, from)).head });
  }
}
