import type { Collection, Document, OptionalUnlessRequiredId } from 'mongodb';
import { ClaimBatcher, claimOnce, memberId } from './claim';
import { findHeadGalloping, type Member } from './find-head';
import { RememberedHeads } from './remembered-heads';

/** Entry `n` of a log (1-based; n = 0 is the empty log). */
export interface LogEntry<T> {
  n: number;
  value: T;
}

export interface LogFormat<T, D extends Document> {
  /** The stored document of entry `n` of `scope`, without its `_id` (the log sets it: `scope#n`). */
  toDoc(scope: string, n: number, value: T): Omit<D, '_id'>;
  fromDoc(doc: D): T;
  /** The fields fromDoc reads (so lookups fetch no more). */
  projection?: Document;
}

/** Per scope, entry n is the claim of `scope#n` (claim.ts): no log forks, so a value derived from the entry before is exact. */
export class AppendLog<T, D extends Document & { _id: string }> {
  private readonly heads = new RememberedHeads<LogEntry<T>>(50_000);
  private readonly turns = new Map<string, Promise<unknown>>();
  private readonly batcher: ClaimBatcher<D> | null;

  constructor(
    private readonly col: Collection<D>,
    private readonly format: LogFormat<T, D>,
    /** batchClaims: appends made in the same tick go to the store together (claim.ts ClaimBatcher). */
    options: { batchClaims?: boolean } = {},
  ) {
    this.batcher = options.batchClaims ? new ClaimBatcher(col) : null;
  }

  /** The last entry of `scope` this process has seen, without a read (an entry at or below the head). */
  seen(scope: string): LogEntry<T> | null {
    return this.heads.get(scope);
  }

  /** The last entry of `scope` (null: empty), searched from the later of the one seen last and `known`. */
  async head(scope: string, known: LogEntry<T> | null = null): Promise<LogEntry<T> | null> {
    return (await this.findHead(scope, from(this.heads.later(scope, known)))).doc;
  }

  /** Appends what `next` derives from the head (null: nothing); retries when another writer took the number. */
  append(scope: string, next: (head: LogEntry<T> | null) => T | null): Promise<{ entry: LogEntry<T> | null; appended: boolean }> {
    return this.inTurn(scope, async () => {
      let head = this.heads.get(scope) ?? (await this.findHead(scope, from(null))).doc;
      for (;;) {
        const value = next(head);
        if (value === null) return { entry: head, appended: false };
        const entry = { n: (head?.n ?? 0) + 1, value };
        if (await this.appendAt(scope, entry.n, value)) return { entry, appended: true };
        head = (await this.findHead(scope, from(head))).doc;
      }
    });
  }

  /** Appends a `value` independent of the head without a read; a number taken costs a search, above `floor` (entries up to it may be gone). */
  push(scope: string, value: T, floor = 0): Promise<number> {
    return this.inTurn(scope, async () => {
      let n = Math.max(this.heads.get(scope)?.n ?? 0, floor);
      for (;;) {
        if (await this.appendAt(scope, n + 1, value)) return n + 1;
        n = (await this.findHead(scope, { n: n + 1, doc: null })).n;
      }
    });
  }

  /** A process's appends to a scope run in turn: k concurrent ones would cost about k² round trips, not k. */
  private inTurn<R>(scope: string, work: () => Promise<R>): Promise<R> {
    const run = (this.turns.get(scope) ?? Promise.resolve()).then(work);
    const settled: Promise<void> = run
      .catch(() => undefined)
      .then(() => {
        if (this.turns.get(scope) === settled) this.turns.delete(scope);
      });
    this.turns.set(scope, settled);
    return run;
  }

  /** Claims entry `n` of `scope` for `value`: false when another writer wrote entry n first. */
  async appendAt(scope: string, n: number, value: T): Promise<boolean> {
    const doc = { _id: memberId(scope, n), ...this.format.toDoc(scope, n, value) } as unknown as OptionalUnlessRequiredId<D>;
    if (!(await (this.batcher ? this.batcher.claim(doc) : claimOnce(this.col, doc)))) return false;
    this.heads.raise(scope, { n, value });
    return true;
  }

  /** Deletes entries `ns` of `scope` (one command): only below a floor every push respects. */
  async remove(scope: string, ns: number[]): Promise<void> {
    if (ns.length === 0) return;
    await this.col.deleteMany({ _id: { $in: ns.map((n) => memberId(scope, n)) } } as never);
  }

  async entry(scope: string, n: number): Promise<LogEntry<T> | null> {
    const doc = await this.col.findOne({ _id: memberId(scope, n) } as never, this.format.projection ? { projection: this.format.projection } : {});
    return doc ? { n, value: this.format.fromDoc(doc as unknown as D) } : null;
  }

  /** The entries after `n`, oldest first, up to `max`: one `_id` lookup each, plus one finding nothing. */
  async readSince(scope: string, n: number, max = 100): Promise<Array<LogEntry<T>>> {
    const found: Array<LogEntry<T>> = [];
    while (found.length < max) {
      const entry = await this.entry(scope, n + found.length + 1);
      if (!entry) break;
      found.push(entry);
    }
    if (found.length > 0) this.heads.raise(scope, found[found.length - 1]);
    return found;
  }

  /** The last entry, searched from `start` (an entry known to exist, its value unread when `doc` is null; or 0). */
  private async findHead(scope: string, start: Member<LogEntry<T>>): Promise<Member<LogEntry<T>>> {
    const found = await findHeadGalloping((i) => this.entry(scope, i), start);
    if (found.doc) this.heads.raise(scope, found.doc);
    return found;
  }
}

const from = <T>(entry: LogEntry<T> | null): Member<LogEntry<T>> => ({ n: entry?.n ?? 0, doc: entry });
