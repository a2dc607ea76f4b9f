import { Collection, Db } from 'mongodb';
import { insertUnique, memberId, probeGalloping } from './unique-sequence';

/** What a process that caches keys must forget: one key (revoked), or every key of an account (its tier changed). */
export type CredentialChange = { kind: 'key_revoked'; key_hash: string } | { kind: 'tier_set'; account_id: string };

type ChangeDoc = CredentialChange & {
  /** `credentials#<n>`: entry n is written by exactly one writer (unique-sequence.ts). */
  _id: string;
  n: number;
  at: Date;
};

const SCOPE = 'credentials';

/**
 * `credential_changes`: the log every API process follows to drop cached keys
 * (services/credential-change-follower.ts), so that a process need not re-read each key it
 * caches every half second to honour "a revoked key is refused by every process within 1 s".
 * One sequence for the whole platform; entries are tiny and as rare as revocations and tier
 * changes (human actions), so they are kept (a follower that starts finds the end by a galloping
 * `_id` probe, which needs every entry to stay). On real MongoDB a change stream on `api_keys`
 * and `accounts` could replace it.
 */
export class CredentialChanges {
  private readonly col: Collection<ChangeDoc>;
  /** The last entry this process saw: an append starts its probe there. */
  private known = 0;

  constructor(db: Db) {
    this.col = db.collection<ChangeDoc>('credential_changes');
  }

  async ensureIndexes(): Promise<void> {
    /* `_id` lookups only; entries are kept (see above). */
  }

  /** Appends `change` after every entry already there (racing writers each get their own n). */
  async append(change: CredentialChange, at: Date): Promise<number> {
    let n = await this.end();
    for (;;) {
      const doc = { ...change, _id: memberId(SCOPE, n + 1), n: n + 1, at } as ChangeDoc;
      if (await insertUnique(this.col, doc)) {
        this.known = Math.max(this.known, n + 1);
        return n + 1;
      }
      n = await this.end(n + 1);
    }
  }

  /** The number of the last entry (0 for none): a galloping probe from what this process saw last. */
  async end(from = this.known): Promise<number> {
    const { n } = await probeGalloping((i) => this.entry(i), { n: from, doc: null });
    this.known = Math.max(this.known, n);
    return n;
  }

  /** Entries after `n`, oldest first, up to `max` (one `_id` lookup each, plus one that finds nothing). */
  async after(n: number, max = 100): Promise<Array<CredentialChange & { n: number }>> {
    const found: Array<CredentialChange & { n: number }> = [];
    while (found.length < max) {
      const doc = await this.entry(n + found.length + 1);
      if (!doc) break;
      found.push(doc.kind === 'key_revoked' ? { kind: doc.kind, key_hash: doc.key_hash, n: doc.n } : { kind: doc.kind, account_id: doc.account_id, n: doc.n });
    }
    return found;
  }

  private entry(n: number): Promise<ChangeDoc | null> {
    return this.col.findOne({ _id: memberId(SCOPE, n) });
  }
}
