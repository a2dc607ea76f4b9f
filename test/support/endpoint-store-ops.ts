import { createHash } from 'node:crypto';
import type { Db } from 'mongodb';
import { systemClock } from '../../src/domain/clock';
import { createSecretBox } from '../../src/domain/webhooks/secret-box';
import { EndpointHealthLog } from '../../src/persistence/endpoint-health-log';
import { EndpointInFlightLeases } from '../../src/persistence/endpoint-in-flight-leases';
import { EndpointRateTokens } from '../../src/persistence/endpoint-rate-tokens';
import { Endpoints } from '../../src/persistence/endpoints';
import { EndpointService } from '../../src/services/endpoint-service';
import { endpointDoc } from './endpoint-doc';
import type { WriterJob } from './store-writer-ops';

/** The numbers the endpoint writers share (their suite: test/integration/endpoint-store-writers.test.ts). */
export const ENDPOINT_WRITERS = { cap: 7, ratePerSecond: 5, window: 100, inFlight: 3 } as const;

const LATER = new Date('2100-01-01T00:00:00Z');

/** The endpoints `<scope>-<k>` the rotation writers rotate. */
export const ROTATED_ENDPOINTS = [0, 1, 2, 3, 4];

/** Every writer process opens the same secrets with the key named by its scope. */
export const secretBoxFor = (scope: string) => createSecretBox(createHash('sha256').update(scope).digest());

/** An EndpointService over `db` with only what rotation needs. */
function rotationService(db: Db, scope: string): EndpointService {
  return new EndpointService({
    endpoints: new Endpoints(db),
    deliveries: {} as never,
    health: new EndpointHealthLog(db),
    scheduler: {} as never,
    resumer: {} as never,
    secretBox: secretBoxFor(scope),
    allowPrivateNetworks: true,
    maxEndpointsPerAccount: 100,
    autoDisableAfterMs: 86_400_000,
    dnsLookup: (async () => []) as never,
    clock: systemClock,
  });
}

/** Each runs `count` operations of its kind at once in a writer process (store-writer.ts) and returns what it was told. */
export const endpointWriterOperations = {
  /** `count` failed deliveries to endpoint `<scope>`, each recorded twice at once (an activity run again); returns how many it recorded. */
  async recordHealth(db: Db, job: WriterJob): Promise<number> {
    const health = new EndpointHealthLog(db);
    const facts = Array.from({ length: job.count }, (_, i) => ({ kind: 'delivery' as const, key: `${job.name}-${i}#r1`, succeeded: false, at: new Date() }));
    await Promise.all([...facts, ...facts].map((fact) => health.record(job.scope, fact)));
    return facts.length;
  },

  /** `count` takes of one window's tokens for endpoint `<scope>`; returns how many were handed out. */
  async takeRateTokens(db: Db, job: WriterJob): Promise<number> {
    const tokens = new EndpointRateTokens(db);
    const { ratePerSecond, window } = ENDPOINT_WRITERS;
    const took = await Promise.all(Array.from({ length: job.count }, () => tokens.take(job.scope, ratePerSecond, window, LATER)));
    return took.filter(Boolean).length;
  },

  /** `count` in-flight leases asked for endpoint `<scope>`; returns the leases given. */
  async acquireLeases(db: Db, job: WriterJob): Promise<string[]> {
    const leases = new EndpointInFlightLeases(db);
    const now = new Date();
    const given = await Promise.all(Array.from({ length: job.count }, () => leases.acquire(job.scope, ENDPOINT_WRITERS.inFlight, now, LATER)));
    return given.filter((lease): lease is string => lease !== null);
  },

  /** `count` endpoints created for account `<scope>` under the cap; returns the ids inserted. */
  async createEndpoints(db: Db, job: WriterJob): Promise<string[]> {
    const endpoints = new Endpoints(db);
    const docs = Array.from({ length: job.count }, (_, i) => endpointDoc('sealed', { _id: `ep_${job.name}_${i}`, account_id: job.scope }));
    const inserted = await Promise.all(docs.map((doc) => endpoints.insertIfRoom(doc, ENDPOINT_WRITERS.cap)));
    return docs.filter((_, i) => inserted[i] === null).map((doc) => doc._id);
  },

  /** `count` rotations (an hour's grace) of each of the endpoints `<scope>-0..4` of account `acct_<scope>`, all at once; returns the new secrets per endpoint. */
  async rotateSecrets(db: Db, job: WriterJob): Promise<string[][]> {
    const service = rotationService(db, job.scope);
    const rotations = (endpointId: string) => Promise.all(Array.from({ length: job.count }, () => service.rotateSecret(`acct_${job.scope}`, endpointId, 3600)));
    return Promise.all(ROTATED_ENDPOINTS.map((k) => rotations(`${job.scope}-${k}`)));
  },
};
