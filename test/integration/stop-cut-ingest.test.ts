import type { Platform } from '../../src/main/platform';
import { deliveryClosed } from '../support/delivery-workflows';
import { holdMethod } from '../support/gate';
import { apiClient, createAccountWithKey, startTestPlatform } from '../support/platform';
import { startReceiver } from '../support/receiver';

/**
 * A stop cuts the calls still open at its deadline, but their handlers run on: an ingest cut
 * before its insert may store its event and claim its key after the stop has drained the outbox.
 * The stopping process keeps its lease while any ingest is in flight, so crash recovery finds
 * such an event and delivers it.
 */
describe('a stop that cuts an ingest before its insert', () => {
  const platforms: Platform[] = [];
  const receivers: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    for (const p of platforms.reverse()) await p.stop().catch(() => undefined);
    await Promise.all(receivers.map((r) => r.close()));
  });

  async function start(sameAs?: Platform) {
    const platform = await startTestPlatform(sameAs ? { sameAs } : {});
    platforms.push(platform);
    return platform;
  }

  it('the event it stores is delivered once, by crash recovery, and answers its key', async () => {
    const first = await start();
    const receiver = await startReceiver(() => ({ status: 200 }));
    receivers.push(receiver);
    const { key } = await createAccountWithKey(first);
    const endpointId = (await apiClient(first, key).post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/hook` })).body.id as string;
    const event = { type: 'stop.cut', data: { n: 1 }, idempotency_key: 'cut-at-stop' };

    // The ingest is held before its insert; the stop is held once it has decided what to do with the lease;
    // the stored event's hand-over is held, as if the process had gone before starting its workflows.
    const insert = holdMethod(first.repositories.events, 'insertWithNextId');
    const leaseStop = holdMethod(first.services.lease, 'stop');
    const handOver = holdMethod(first.services.outbox, 'enqueue', { when: (e) => e.idempotency_key === event.idempotency_key });
    const cut = apiClient(first, key).post('/api/v1/webhooks/events', event).catch(() => 'cut');
    await insert.reached;
    const stopping = first.stop({ deadline: Date.now() });
    await leaseStop.reached;
    expect(await cut).toBe('cut');
    insert.open();
    await handOver.reached;
    leaseStop.open();
    await stopping;
    platforms.splice(platforms.indexOf(first), 1);

    const second = await start(first);
    const repeat = await apiClient(second, key).post('/api/v1/webhooks/events', event);
    expect(repeat.status).toBe(200);
    const id = repeat.body.id as number;
    // Crash recovery takes the stopped process's lease over once it expires, and hands the event over.
    await deliveryClosed(second.temporal, id, endpointId, 30_000);
    expect(receiver.received.map((r) => JSON.parse(r.rawBody).id)).toEqual([id]);
  }, 90_000);
});
