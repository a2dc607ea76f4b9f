import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import type { Platform } from '../../src/main/platform';
import type { TestBroker } from './brokers';
import { deliveryClosed, retryWaits } from './delivery-workflows';
import { apiClient, createAccountWithKey, eventually } from './platform';
import { sendEventAccepted } from './send-event';

export type Api = ReturnType<typeof apiClient>;

/** An account with a key, and its client. */
export async function brokerAccount(platform: Platform): Promise<{ api: Api; accountId: string }> {
  const { key, accountId } = await createAccountWithKey(platform);
  return { api: apiClient(platform, key), accountId };
}

/** Registers a broker endpoint (201 expected) and answers it with its secret. */
export async function registerDestination(api: Api, destination: unknown, extra: Record<string, unknown> = {}): Promise<{ id: string; secret: string; [field: string]: unknown }> {
  const res = await api.post('/api/v1/webhooks/endpoints', { destination, ...extra });
  if (res.status !== 201) throw new Error(`registering the destination answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Sends an event (repeating a 503 as callers do), answering its id. */
export async function sendEvent(api: Api, type = 'order.created', data: Record<string, unknown> = { order_id: 42 }): Promise<number> {
  return (await sendEventAccepted(api, { type, data })).body.id;
}

/** The event's delivery once it matches `done`. */
export async function deliveryOf(api: Api, eventId: number, done: (delivery: any) => boolean, timeoutMs = 60_000): Promise<any> {
  return eventually(async () => {
    const delivery = (await api.get(`/api/v1/webhooks/events/${eventId}`)).body.deliveries?.[0];
    return delivery && done(delivery) ? delivery : undefined;
  }, timeoutMs);
}

/** The delivery's end as its workflow closed it: counts made after this are final. */
export async function settled(platform: Platform, eventId: number, endpointId: string): Promise<void> {
  await deliveryClosed(platform.temporal, eventId, endpointId);
}

/** Every document of every collection of the platform's database, as text (to look for what must not be stored). */
export async function everyRecord(platform: Platform): Promise<string> {
  const collections = await platform.db.listCollections({}, { nameOnly: true }).toArray();
  const parts: string[] = [];
  for (const { name } of collections) parts.push(JSON.stringify(await platform.db.collection(name).find({}).toArray()));
  return parts.join('\n');
}

/**
 * An event sent while `broker` is down: its first attempts fail with `refused`, on the retry schedule (1 s, then 5 s),
 * and once the broker is up again it is delivered. Answers the event id after its delivery's workflow has closed.
 */
export async function deliveredAfterDowntime(platform: Platform, api: Api, broker: TestBroker, endpointId: string, refused: RegExp): Promise<number> {
  await broker.down();
  let eventId: number;
  try {
    eventId = await sendEvent(api);
    const waiting = await deliveryOf(api, eventId, (d) => d.attempt_count >= 2);
    expect(waiting.status).toBe('retrying');
    for (const attempt of waiting.attempts) expect(attempt.error).toMatch(refused);
  } finally {
    await broker.up();
  }
  const delivered = await deliveryOf(api, eventId, (d) => d.status === 'succeeded', 90_000);
  expect(delivered.attempts.at(-1)).toMatchObject({ status_code: null, error: null });
  await settled(platform, eventId, endpointId);
  expect((await retryWaits(platform.temporal, deliveryId(eventId, endpointId))).slice(0, 2)).toEqual([1_000, 5_000]);
  return eventId;
}
