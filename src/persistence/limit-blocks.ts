import { Collection, Db } from 'mongodb';
import { AppendLog, type ExpirySweepers, type LogFormat } from './store-primitives';

/**
 * One entry of a scope's block log: entry n grants `delta` calls (a block claimed) or, when
 * negative, gives that many back; `cum` is the scope's running total, entry n-1's cum + delta.
 */
export interface BlockEntry {
  n: number;
  delta: number;
  cum: number;
}

/** An entry's value; `expires_at` is written with it (the scope's end plus retention) and never read back. */
type BlockValue = Omit<BlockEntry, 'n'> & { expires_at?: Date };

interface BlockDoc extends BlockEntry {
  _id: string;
  scope: string;
  expires_at: Date;
}

const format: LogFormat<BlockValue, BlockDoc> = {
  toDoc: (scope, n, { delta, cum, expires_at }) => ({ scope, n, delta, cum, expires_at: expires_at as Date }),
  fromDoc: (doc) => ({ delta: doc.delta, cum: doc.cum }),
  projection: { delta: 1, cum: 1 },
};

/**
 * `limit_blocks`: the calls granted in each burst window or billing period (a "scope"), an append log
 * per scope (store-primitives/append-log.ts): each running total derives from the entry before, so
 * no two processes can fork it, and the limits' exactness rests on this. A scope's entries expire
 * together. Appends of one tick go to the store as one batch.
 */
export class LimitBlocks {
  private readonly log: AppendLog<BlockValue, BlockDoc>;
  private readonly col: Collection<BlockDoc>;

  constructor(db: Db) {
    this.col = db.collection<BlockDoc>('limit_blocks');
    this.log = new AppendLog(this.col, format, { batchClaims: true });
  }

  async ensureIndexes(expiry: ExpirySweepers): Promise<void> {
    await expiry.ensureExpiry(this.col, 'expires_at');
  }

  /** false when entry `entry.n` of `scope` was written first by someone else. */
  append(scope: string, { n, delta, cum }: BlockEntry, expiresAt: Date): Promise<boolean> {
    return this.log.appendAt(scope, n, { delta, cum, expires_at: expiresAt });
  }

  /** The latest entry of `scope`, searching upwards from `known` (an entry that exists), or null for an empty log. */
  async latest(scope: string, known: BlockEntry | null): Promise<BlockEntry | null> {
    const head = await this.log.head(scope, known && { n: known.n, value: { delta: known.delta, cum: known.cum } });
    return head && { n: head.n, delta: head.value.delta, cum: head.value.cum };
  }
}
