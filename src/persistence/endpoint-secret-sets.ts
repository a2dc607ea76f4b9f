import type { Collection, Db } from 'mongodb';
import type { SecretSet } from '../domain/webhooks/secret-rotation';
import { AppendLog, type LogFormat } from './store-primitives';

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
 * An append log per endpoint, an entry per rotation: of two rotations at once the second derives
 * from the first, so no secret is lost. Attempts sign with the copy Endpoints.rotateSecrets keeps.
 */
export class EndpointSecretSets {
  private readonly col: Collection<SecretSetDoc>;
  private readonly log: AppendLog<SecretSet, SecretSetDoc>;

  constructor(db: Db) {
    this.col = db.collection<SecretSetDoc>('endpoint_secret_sets');
    this.log = new AppendLog(this.col, format);
  }

  async ensureIndexes(): Promise<void> {
    await this.col.createIndex({ endpoint_id: 1 });
  }

  /** The latest set (null before the first rotation). */
  async latest(endpointId: string): Promise<SecretSet | null> {
    return (await this.log.head(endpointId))?.value ?? null;
  }

  /** Appends `rotate` of the latest set (`initial` before any rotation), derived again when another rotation took the number first. */
  async rotate(endpointId: string, initial: SecretSet, rotate: (set: SecretSet) => SecretSet): Promise<SecretSet> {
    return (await this.log.append(endpointId, (latest) => rotate(latest?.value ?? initial))).entry!.value;
  }

  async deleteAll(endpointId: string): Promise<void> {
    await this.col.deleteMany({ endpoint_id: endpointId });
  }
}
