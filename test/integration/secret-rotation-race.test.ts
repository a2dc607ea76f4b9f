import { randomBytes } from 'node:crypto';
import type { Db } from 'mongodb';
import { systemClock } from '../../src/domain/clock';
import { createSecretBox } from '../../src/domain/webhooks/secret-box';
import { secretsInGrace } from '../../src/domain/webhooks/secret-rotation';
import { createDnsLookup, DEFAULT_DNS_MAX_CONCURRENT, DEFAULT_DNS_TIMEOUT_MS } from '../../src/infra/dns-lookup';
import { EndpointHealthLog } from '../../src/persistence/endpoint-health-log';
import { Endpoints } from '../../src/persistence/endpoints';
import { EndpointService } from '../../src/services/endpoint-service';
import { holdMethod } from '../support/gate';
import { openTestDb } from '../support/test-db';

/**
 * Concurrent writes to one endpoint, on the real embedded store: one is held after it read the
 * endpoint, before its write, while another runs to the end. Every secret a rotation handed out must
 * still sign (rotations in two processes: endpoint-store-writers.test.ts).
 */
describe('concurrent endpoint writes', () => {
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let db: Db;
  beforeAll(async () => {
    store = await openTestDb('secret_rotation_race');
    db = store.db;
  });
  afterAll(() => store.close());

  const secretBox = createSecretBox(randomBytes(32));

  function serviceOver(endpoints: Endpoints): EndpointService {
    return new EndpointService({
      endpoints,
      deliveries: {} as never,
      health: new EndpointHealthLog(db),
      scheduler: {} as never,
      resumer: {} as never,
      secretBox,
      allowPrivateNetworks: true,
      maxEndpointsPerAccount: 100,
      autoDisableAfterMs: 5 * 86_400_000,
      dnsLookup: createDnsLookup({ timeoutMs: DEFAULT_DNS_TIMEOUT_MS, maxConcurrent: DEFAULT_DNS_MAX_CONCURRENT }),
      clock: systemClock,
    });
  }

  /** The secrets that sign an attempt made now: the current one, then those in their grace. */
  async function signingSecrets(endpoints: Endpoints, accountId: string, id: string): Promise<string[]> {
    const doc = (await endpoints.find(accountId, id))!;
    return [doc.secret_sealed, ...secretsInGrace(doc, new Date()).map((s) => s.sealed)].map((sealed) => secretBox.open(sealed));
  }

  it('a rotation whose write lands after a later rotation keeps both new secrets signing', async () => {
    const endpoints = new Endpoints(db);
    const service = serviceOver(endpoints);
    const endpoint = await service.create('acct_race', { url: 'https://127.0.0.1:9/hook' });
    const write = holdMethod(endpoints, 'update');

    const held = service.rotateSecret('acct_race', endpoint.id, 3600);
    await write.reached;
    const later = await service.rotateSecret('acct_race', endpoint.id, 3600);
    write.open();
    const earlier = await held;

    expect(await signingSecrets(endpoints, 'acct_race', endpoint.id)).toEqual([earlier, later, endpoint.secret]);
  });

  it('a PATCH whose write lands after a DELETE of the endpoint answers not_found, and nothing is recreated', async () => {
    const endpoints = new Endpoints(db);
    const service = serviceOver(endpoints);
    const endpoint = await service.create('acct_race', { url: 'https://127.0.0.1:9/hook' });
    const write = holdMethod(endpoints, 'update');

    const patch = service.update('acct_race', endpoint.id, { description: 'late' });
    await write.reached;
    expect(await endpoints.delete('acct_race', endpoint.id)).toBe(true);
    write.open();

    await expect(patch).rejects.toMatchObject({ code: 'not_found' });
    expect(await db.collection('endpoints').countDocuments({ _id: endpoint.id } as never)).toBe(0);
  });
});
