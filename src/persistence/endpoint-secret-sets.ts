import type { Collection, Db } from 'mongodb';
import type { SecretSet } from '../domain/webhooks/secret-rotation';
import { VersionedCells, type LogFormat } from './store-primitives';

/** Sealed like the endpoint's own fields (secret-box.ts). */
interface SecretSetDoc extends Required<SecretSet> {
  /** `<endpointId>#<n>`: the set after the endpoint's n-th rotation, written by exactly one rotation. */
  _id: string;
  endpoint_id: string;
  n: number;
}

const format: LogFormat<SecretSet, SecretSetDoc> = {
  toDoc: (endpointId, n, set) => ({ endpoint_id: endpointId, n, secret_sealed: set.secret_sealed, previous_secrets: set.previous_secrets ?? [] }),
  fromDoc: (doc) => ({ secret_sealed: doc.secret_sealed, previous_secrets: doc.previous_secrets }),
  projection: { secret_sealed: 1, previous_secrets: 1 },
};

/**
 * A compare-and-set cell per endpoint, a version per rotation: of two rotations at once the second
 * derives from the first, so no secret is lost. Attempts sign with the copy Endpoints.rotateSecrets keeps.
 */
export class EndpointSecretSets {
  private readonly col: Collection<SecretSetDoc>;
  private readonly cells: VersionedCells<SecretSet, SecretSetDoc>;

  constructor(db: Db) {
    this.col = db.collection<SecretSetDoc>('endpoint_secret_sets');
    this.cells = new VersionedCells(this.col, format);
  }

  async ensureIndexes(): Promise<void> {
    await this.col.createIndex({ endpoint_id: 1 });
  }

  /** The latest set (null before the first rotation). */
  async latest(endpointId: string): Promise<SecretSet | null> {
    return (await this.cells.read(endpointId)).value;
  }

  /** Writes `rotate` of the latest set (`initial` before any rotation) as the next version, until no other rotation took it first. */
  async rotate(endpointId: string, initial: SecretSet, rotate: (set: SecretSet) => SecretSet): Promise<SecretSet> {
    return (await this.cells.update(endpointId, (latest) => rotate(latest ?? initial)))!;
  }

  async deleteAll(endpointId: string): Promise<void> {
    await this.col.deleteMany({ endpoint_id: endpointId });
  }
}
