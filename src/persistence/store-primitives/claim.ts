import { Collection, Document, MongoBulkWriteError, MongoServerError, OptionalUnlessRequiredId } from 'mongodb';
import { DUPLICATE_KEY, isDuplicateKeyError } from '../mongo';

// Claiming an id once is the one arbiter between processes the embedded store offers: FerretDB applies
// no read-modify-write atomically, but of concurrent inserts of one `_id` exactly one succeeds.

/** A claim that keeps when it was made. */
export interface DatedClaim {
  _id: string;
  at: Date;
}

export function memberId(scope: string, n: number): string {
  return `${scope}#${n}`;
}

/** Inserts `doc`: true when this insert wrote it, false when a document with its `_id` was there first. */
export async function claimOnce<T extends Document>(collection: Collection<T>, doc: OptionalUnlessRequiredId<T>): Promise<boolean> {
  try {
    await collection.insertOne(doc);
    return true;
  } catch (err) {
    if (isDuplicateKeyError(err)) return false;
    throw err;
  }
}

/** One unordered insertMany: one store transaction, not one per document. Answers per document, in order. */
export async function claimEach<T extends Document>(collection: Collection<T>, docs: OptionalUnlessRequiredId<T>[]): Promise<Array<boolean | Error>> {
  if (docs.length === 1) return [await claimOnce(collection, docs[0]).catch((err: Error) => err)];
  try {
    await collection.insertMany(docs, { ordered: false });
    return docs.map(() => true);
  } catch (err) {
    if (!(err instanceof MongoBulkWriteError) || err.writeConcernError) return docs.map(() => err as Error);
    // Unordered: every document was tried; the ones listed failed, all others were inserted.
    const writeErrors = Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors];
    const failed = new Map(writeErrors.map((e) => [e.index, e]));
    return docs.map((_, index) => {
      const error = failed.get(index);
      if (!error) return true;
      if (error.code === DUPLICATE_KEY) return false;
      return new MongoServerError({ message: error.errmsg ?? 'insert failed', code: error.code });
    });
  }
}

const MAX_BATCH = 256;

/** claimOnce for hot paths: claims of the same tick, any scopes, go to the store as one claimEach. */
export class ClaimBatcher<T extends Document> {
  private queue: Array<{ doc: OptionalUnlessRequiredId<T>; resolve: (claimed: boolean) => void; reject: (err: unknown) => void }> = [];
  private flushScheduled = false;

  constructor(private readonly collection: Collection<T>) {}

  claim(doc: OptionalUnlessRequiredId<T>): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.queue.push({ doc, resolve, reject });
      if (this.queue.length >= MAX_BATCH) this.flush();
      else if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    void claimEach(
      this.collection,
      batch.map((c) => c.doc),
    ).then(
      (results) => results.forEach((result, i) => (result instanceof Error ? batch[i].reject(result) : batch[i].resolve(result))),
      (err) => batch.forEach((c) => c.reject(err)),
    );
  }
}
