import { SingleFlight } from '../infra/single-flight';
import { Collection, Db } from 'mongodb';
import { raiseHint } from './store-primitives';

/**
 * An account's events are numbered 0, 1, 2, ... (`seq`, per account) as they are stored, and
 * grouped in blocks of SEQ_BLOCK consecutive numbers. A list reads whole blocks, newest first,
 * each with one equality on a single string field (`seq_block`), the one kind of filter the
 * embedded store answers from an index without reading the rest of the account (mongo.ts): a
 * page costs a few blocks whatever the account's history. The number is claimed by the event's
 * own insert (a unique `seq_key`), so ingest makes no extra insert.
 */
export const SEQ_BLOCK = 16;
const SEQ_DIGITS = 12;
const padded = (n: number) => String(n).padStart(SEQ_DIGITS, '0');

/** Unique across accounts: what the event's insert claims. */
export const seqKey = (accountId: string, seq: number): string => `${accountId}#${padded(seq)}`;
/** What a list reads: the block's events, by one equality. */
export const blockKey = (accountId: string, block: number): string => `${accountId}#${padded(block)}`;
export const blockOf = (seq: number): number => Math.floor(seq / SEQ_BLOCK);

/** Far below the shortest retention (config.ts): a head this young is above every number retention has removed. */
const HEAD_TRUST_MS = 3_600_000;
/** Accounts whose head this process remembers; the oldest is forgotten first (and learned again when needed). */
const HEADS_KEPT = 10_000;

/**
 * Per account (`_id`): lower bounds, raised with `$max` (a lost update on the embedded store only
 * leaves a bound lower, never wrong). `head_block`: a block that held an event; `floor_block`:
 * retention has removed the account's events up to this block (blocks at or below it are not read).
 */
interface AccountMarksDoc {
  _id: string;
  head_block?: number;
  floor_block?: number;
}

export interface Bounds<T> {
  /** The highest number an event of the account has (or one below the first free block). */
  head: number;
  /** Blocks at or below this one were removed by retention (-1: none). */
  floor: number;
  /** The blocks read to find the head, for the caller to reuse. */
  read: Map<number, T[]>;
}

interface Head {
  seq: number;
  learnedAt: number;
  /** The highest block this process has announced in `head_block`. */
  announced: number;
}

/** The per-account numbering: heads and retention floors. */
export class EventSequences<T extends { seq: number }> {
  private readonly marks: Collection<AccountMarksDoc>;
  private readonly heads = new Map<string, Head>();
  private readonly learning = new SingleFlight<string, Head>();

  constructor(
    db: Db,
    private readonly readBlock: (accountId: string, block: number) => Promise<T[]>,
    private readonly now: () => number = Date.now,
  ) {
    this.marks = db.collection<AccountMarksDoc>('event_seq_marks');
  }

  /** A number for the account's next event: above every number this process knows to be taken. */
  async next(accountId: string): Promise<number> {
    const head = await this.trustedHead(accountId);
    // Synchronous after the await: concurrent inserts of this process never pick the same number.
    head.seq += 1;
    return head.seq;
  }

  /** `seq` was taken by another process: the head is learned again (from the marks, or that block if higher). */
  async taken(accountId: string, seq: number): Promise<void> {
    await this.learn(accountId, blockOf(seq));
  }

  /**
   * An event landed under `seq`: the first one of a block (per process) raises the account's head
   * mark. Never throws: the event is stored, and a mark is only a lower bound (a lost one costs a
   * list a block read or two), so it is tried again with the next event instead.
   */
  async landed(accountId: string, seq: number): Promise<void> {
    const head = this.heads.get(accountId);
    const block = blockOf(seq);
    if (block === 0 || (head && block <= head.announced)) return;
    const before = head?.announced ?? 0;
    if (head) head.announced = block;
    try {
      await raiseHint(this.marks, accountId, { $max: { head_block: block } });
    } catch {
      if (head && head.announced === block) head.announced = before;
    }
  }

  /** Retention removed the account's events up to `seq`: blocks below its block are not read again. */
  async removedThrough(accountId: string, seq: number): Promise<void> {
    if (blockOf(seq) > 0) await raiseHint(this.marks, accountId, { $max: { floor_block: blockOf(seq) - 1 } });
  }

  /** Where a list starts: the head, from the marks and by reading blocks upward (usually two), from `atLeast` if higher. */
  async bounds(accountId: string, atLeast = 0): Promise<Bounds<T>> {
    const marks = await this.marks.findOne({ _id: accountId });
    const floor = marks?.floor_block ?? -1;
    const known = this.heads.get(accountId);
    const from = Math.max(marks?.head_block ?? 0, floor + 1, known ? blockOf(known.seq) : 0, atLeast);
    return { ...(await this.probeUp(accountId, from)), floor };
  }

  /** Blocks at or below this one hold nothing to list (retention removed them). */
  async floor(accountId: string): Promise<number> {
    return (await this.marks.findOne({ _id: accountId }))?.floor_block ?? -1;
  }

  private async trustedHead(accountId: string): Promise<Head> {
    const head = this.heads.get(accountId);
    if (head && this.now() - head.learnedAt <= HEAD_TRUST_MS) return head;
    return this.learn(accountId);
  }

  /** Reads the head from the store (from block `from` at least); one read at a time per account. */
  private learn(accountId: string, from = 0): Promise<Head> {
    return this.learning.run(accountId, async () => {
      const learnedAt = this.now();
      const { head: found } = await this.bounds(accountId, from);
      // Updated in place: a caller holding this head between its await and its increment sees it.
      const head = this.heads.get(accountId) ?? { seq: -1, learnedAt, announced: 0 };
      head.seq = Math.max(head.seq, found);
      head.learnedAt = learnedAt;
      this.heads.delete(accountId);
      this.heads.set(accountId, head);
      if (this.heads.size > HEADS_KEPT) this.heads.delete(this.heads.keys().next().value as string);
      return head;
    }, { join: from === 0 });
  }

  /**
   * The highest number in blocks `from`, `from + 1`, ... up to the first empty block above
   * `from` (blocks fill in order, so nothing is above it). `from` itself may be empty (its
   * events removed, or its announcement came before them).
   */
  private async probeUp(accountId: string, from: number): Promise<{ head: number; read: Map<number, T[]> }> {
    const read = new Map<number, T[]>();
    let head = from * SEQ_BLOCK - 1;
    for (let block = from; ; block++) {
      const docs = await this.readBlock(accountId, block);
      read.set(block, docs);
      if (docs.length === 0 && block > from) return { head, read };
      for (const d of docs) head = Math.max(head, d.seq);
    }
  }
}
