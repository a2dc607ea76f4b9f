import type { Collection, Document } from 'mongodb';
import { AppendLog, LogFormat } from './append-log';

/** A small document and the version that wrote it (0: never written). */
export interface Versioned<T> {
  version: number;
  value: T | null;
}

/**
 * Compare-and-set a small document. FerretDB 1.24 applies a conditional update as a read then a
 * write, so two concurrent setters can both match; so each version is its own claimed document,
 * `key#<version>` (append-log.ts), and of setters from version v exactly one wins. Old versions
 * stay until the cell expires as a whole: for documents set rarely (tens of times).
 */
export class VersionedCells<T, D extends Document & { _id: string }> {
  private readonly log: AppendLog<T, D>;

  constructor(col: Collection<D>, format: LogFormat<T, D>) {
    this.log = new AppendLog(col, format);
  }

  async read(key: string): Promise<Versioned<T>> {
    const head = await this.log.head(key);
    return head ? { version: head.n, value: head.value } : { version: 0, value: null };
  }

  /** Writes `value` as version `expected + 1` if the cell is still at version `expected`: true when it was. */
  compareAndSet(key: string, expected: number, value: T): Promise<boolean> {
    return this.log.appendAt(key, expected + 1, value);
  }

  /** Applies `change` to the current value until it sticks (or `change` returns null: nothing to do); the value written. */
  async update(key: string, change: (current: T | null) => T | null): Promise<T | null> {
    const { entry } = await this.log.append(key, (head) => change(head?.value ?? null));
    return entry?.value ?? null;
  }
}
