import { ExpiringCollection, type ExpiringDoc } from './expiring-collection';
import { AppendLog, type LogFormat } from './store-primitives';

/** Entry n of a scope's block log: grants `delta` calls (negative: gives back); `cum`: the running total. */
export interface BlockEntry {
  n: number;
  delta: number;
  cum: number;
}

/** An entry's value; `expires_at` is written with it (the scope's end plus retention) and never read back. */
type BlockValue = Omit<BlockEntry, 'n'> & { expires_at?: Date };

interface BlockDoc extends BlockEntry, ExpiringDoc {
  scope: string;
}

const format: LogFormat<BlockValue, BlockDoc> = {
  toDoc: (scope, n, { delta, cum, expires_at }) => ({ scope, n, delta, cum, expires_at: expires_at as Date }),
  fromDoc: (doc) => ({ delta: doc.delta, cum: doc.cum }),
  projection: { delta: 1, cum: 1 },
};

/** An append log per burst window or billing period (append-log.ts); a scope's entries expire together. */
export class LimitBlocks extends ExpiringCollection<BlockDoc>('limit_blocks') {
  private readonly log = new AppendLog(this.col, format, { batchClaims: true });

  /** false when entry `n` of `scope` exists already. */
  append(scope: string, { n, delta, cum }: BlockEntry, expiresAt: Date): Promise<boolean> {
    return this.log.appendAt(scope, n, { delta, cum, expires_at: expiresAt });
  }

  /** The latest entry of `scope`, searching upwards from `known`; null for an empty log. */
  async latest(scope: string, known: BlockEntry | null): Promise<BlockEntry | null> {
    const head = await this.log.head(scope, known && { n: known.n, value: { delta: known.delta, cum: known.cum } });
    return head && { n: head.n, delta: head.value.delta, cum: head.value.cum };
  }
}
