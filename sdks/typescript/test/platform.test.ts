/**
 * The SDK against a running platform: PLATFORM_URL, PLATFORM_API_KEY (a `weh` key), PLATFORM_FREE_API_KEY
 * (a `weh` key of a fresh Free-tier account, for its burst limit), and TLS_CERT / TLS_KEY: a certificate
 * for 127.0.0.1 the platform trusts, served by the receivers here (test/integration/sdk-typescript.test.ts
 * starts all of it). The receiver is written with the TypeScript receiver library (receivers/typescript).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import receiverLibrary from '../../../receivers/typescript/src/node.ts';
import { PlatformClient, PlatformError, type EventWithDeliveries, type NewDestination } from '../src/index.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: see the comment at the top of this file`);
  return value;
};
// The library is CommonJS: one instance of it, so that its errors are instances of its error class.
const { verifySync, WebhookVerificationError } = receiverLibrary;
const PLATFORM_URL = env('PLATFORM_URL');
const client = new PlatformClient(PLATFORM_URL, env('PLATFORM_API_KEY'));
/** Each test's own event types, so that lists and endpoints see only its events. */
const unique = (name: string) => `${name}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface Received {
  status: number;
  id?: string;
  type?: string;
  data?: unknown;
  error?: string;
}

/** An HTTPS receiver that verifies every delivery with the receiver library and `secrets()`, and answers 200 or 401. */
async function startReceiver(secrets: () => string[]) {
  const received: Received[] = [];
  const server = https.createServer({ cert: readFileSync(env('TLS_CERT')), key: readFileSync(env('TLS_KEY')) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        const webhook = verifySync(Buffer.concat(chunks), req.headers, { secrets: secrets() });
        received.push({ status: 200, id: webhook.id, type: webhook.event?.type, data: webhook.event?.data });
        res.writeHead(200).end();
      } catch (err) {
        if (!(err instanceof WebhookVerificationError)) throw err;
        received.push({ status: 401, error: err.code });
        res.writeHead(401).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

async function delivered(eventId: number): Promise<EventWithDeliveries> {
  return eventually(async () => {
    const event = await client.events.get(eventId);
    return event.deliveries.length > 0 && event.deliveries.every((d) => d.status === 'succeeded') && event;
  });
}

describe('endpoints', () => {
  it('registers an endpoint, reads, lists, changes and deletes it', async () => {
    const created = await client.endpoints.create({ url: 'https://example.com/hooks/sdk', events: [unique('order') + '.*'], description: 'sdk test' });
    assert.match(created.id, /^ep_/);
    assert.match(created.secret, /^whsec_/);
    assert.equal((await client.endpoints.get(created.id)).url, 'https://example.com/hooks/sdk');
    assert.equal(await client.endpoints.secret(created.id), created.secret);

    const listed: string[] = [];
    for await (const endpoint of client.endpoints.list({ limit: 1 })) listed.push(endpoint.id);
    assert.ok(listed.includes(created.id));

    assert.equal((await client.endpoints.update(created.id, { description: 'changed' })).description, 'changed');
    assert.equal((await client.endpoints.pause(created.id)).paused, true);
    assert.equal((await client.endpoints.resume(created.id)).paused, false);
    await client.endpoints.delete(created.id);
    await assert.rejects(client.endpoints.get(created.id), (err: PlatformError) => err instanceof PlatformError && err.status === 404 && err.code === 'not_found');
  });

  it('registers a RabbitMQ endpoint and reads it back without its credentials', async () => {
    const [username, password] = [unique('sdk-ts-user'), unique('sdk-ts-password')];
    // No broker listens there: registration checks the destination's rules and host (the test platform allows private networks), not the broker.
    const destination: NewDestination = { type: 'rabbitmq', config: { uri: 'amqps://127.0.0.1:5671/prod', exchange: 'webhooks' }, credentials: { username, password } };
    const created = await client.endpoints.create({ destination, events: [unique('order') + '.*'] });
    try {
      const read = await client.endpoints.get(created.id);
      assert.equal(read.url, null);
      assert.deepEqual(read.destination, {
        type: 'rabbitmq',
        config: { uri: 'amqps://127.0.0.1:5671/prod', exchange: 'webhooks', routing_key: '' },
        credentials_set: ['password', 'username'],
      });
      for (const answer of [created, read]) {
        const text = JSON.stringify(answer);
        assert.ok(!text.includes(password) && !text.includes(username), `a credential in ${text}`);
      }
    } finally {
      await client.endpoints.delete(created.id);
    }
  });

  it('throws the platform’s error code for a refused endpoint', async () => {
    await assert.rejects(client.endpoints.create({ url: 'http://example.com/plain-http' }), (err: PlatformError) => err instanceof PlatformError && err.status === 422 && err.code === 'unsupported_url_scheme');
  });
});

describe('event types', () => {
  it('registers a type with a schema: a send whose data does not match throws 422 schema_mismatch with the paths; reads, lists, changes and deletes it', async () => {
    const name = unique('invoice.paid');
    const schema = { type: 'object', properties: { amount: { type: 'integer', minimum: 0 } }, required: ['amount'] };
    const created = await client.eventTypes.create({ name, description: 'An invoice was paid.', schema, example: { amount: 5 } });
    assert.deepEqual([created.name, created.schema, created.example], [name, schema, { amount: 5 }]);
    await assert.rejects(client.eventTypes.create({ name }), (err: PlatformError) => err instanceof PlatformError && err.status === 409 && err.code === 'event_type_exists');

    await assert.rejects(client.events.send(name, { amount: -1 }), (err: PlatformError) => {
      const details = (err.body as { details?: Array<{ path: string }> }).details ?? [];
      return err instanceof PlatformError && err.status === 422 && err.code === 'schema_mismatch' && details.map((d) => d.path).join() === 'data.amount';
    });
    assert.equal((await client.events.send(name, { amount: 1 })).type, name);

    assert.equal((await client.eventTypes.get(name)).description, 'An invoice was paid.');
    const listed: string[] = [];
    for await (const eventType of client.eventTypes.list({ limit: 1 })) listed.push(eventType.name);
    assert.ok(listed.includes(name));

    const changed = await client.eventTypes.update(name, { schema: null, example: null });
    assert.deepEqual([changed.description, changed.schema, changed.example], ['An invoice was paid.', null, null]);
    assert.equal((await client.events.send(name, { amount: -1 })).type, name);
    await client.eventTypes.delete(name);
    await assert.rejects(client.eventTypes.get(name), (err: PlatformError) => err instanceof PlatformError && err.status === 404 && err.code === 'not_found');
  });
});

describe('tenants and portal sessions', () => {
  /** Endpoints subscribed to a type no event here has: a tenant to count, list and scope, with no delivery made. */
  const quietEndpoint = (tenantId: string) => client.endpoints.create({ url: 'https://example.com/hooks/tenant', events: [unique('quiet')], tenant_id: tenantId });

  it('an event sent for tenant A reaches A’s endpoint only, not tenant B’s', async () => {
    let secrets: string[] = [];
    const receiver = await startReceiver(() => secrets);
    try {
      const [tenantA, tenantB, type] = [unique('cus_a'), unique('cus_b'), unique('invoice.paid')];
      const endpointA = await client.endpoints.create({ url: receiver.url, events: [type], tenant_id: tenantA });
      const endpointB = await client.endpoints.create({ url: receiver.url, events: [type], tenant_id: tenantB });
      secrets = [endpointA.secret, endpointB.secret];
      assert.deepEqual([endpointA.tenant_id, endpointB.tenant_id], [tenantA, tenantB]);

      const sent = await client.events.send(type, { invoice: 'inv_a' }, { tenantId: tenantA });
      assert.deepEqual([sent.tenant_id, sent.destinations], [tenantA, 1]);
      const event = await delivered(sent.id);
      assert.deepEqual(event.deliveries.map((d) => d.endpoint_id), [endpointA.id]);
      assert.deepEqual(receiver.received.filter((r) => r.id === String(sent.id)).map((r) => r.status), [200]);
      const listed = async (tenantId: string) => {
        const ids: number[] = [];
        for await (const e of client.events.list({ type, tenant_id: tenantId })) ids.push(e.id);
        return ids;
      };
      assert.deepEqual([await listed(tenantA), await listed(tenantB)], [[sent.id], []]);
      await client.tenants.delete(tenantA);
      await client.tenants.delete(tenantB);
    } finally {
      receiver.close();
    }
  });

  it('lists the account’s tenants with their endpoint counts, and a tenant’s endpoints', async () => {
    const [tenantA, tenantB] = [unique('cus_a'), unique('cus_b')];
    const [a1, a2] = [await quietEndpoint(tenantA), await quietEndpoint(tenantA)];
    await quietEndpoint(tenantB);
    const counts = new Map<string, number>();
    for await (const tenant of client.tenants.list({ limit: 1 })) counts.set(tenant.tenant_id, tenant.endpoint_count);
    assert.deepEqual([counts.get(tenantA), counts.get(tenantB)], [2, 1]);
    const endpointsOfA: string[] = [];
    for await (const endpoint of client.endpoints.list({ tenant_id: tenantA })) endpointsOfA.push(endpoint.id);
    assert.deepEqual(endpointsOfA.sort(), [a1.id, a2.id].sort());
    await client.tenants.delete(tenantA);
    await client.tenants.delete(tenantB);
  });

  it('deletes a tenant: its endpoints go and it leaves the list; another tenant’s endpoint stays', async () => {
    const [tenantA, tenantB] = [unique('cus_a'), unique('cus_b')];
    const [endpointA, endpointB] = [await quietEndpoint(tenantA), await quietEndpoint(tenantB)];
    await client.tenants.delete(tenantA);
    await assert.rejects(client.endpoints.get(endpointA.id), (err: PlatformError) => err instanceof PlatformError && err.status === 404);
    assert.equal((await client.endpoints.get(endpointB.id)).tenant_id, tenantB);
    const tenants: string[] = [];
    for await (const tenant of client.tenants.list()) tenants.push(tenant.tenant_id);
    assert.ok(!tenants.includes(tenantA) && tenants.includes(tenantB), tenants.join());
    await assert.rejects(client.tenants.delete(tenantA), (err: PlatformError) => err instanceof PlatformError && err.status === 404 && err.code === 'not_found');
    await client.tenants.delete(tenantB);
  });

  it('a portal session’s token, as the client’s key, sees and changes only its tenant’s records', async () => {
    const [tenantA, tenantB] = [unique('cus_a'), unique('cus_b')];
    const [endpointA, endpointB] = [await quietEndpoint(tenantA), await quietEndpoint(tenantB)];
    const session = await client.portalSessions.create({ tenant_id: tenantA, expires_in_seconds: 600 });
    assert.match(session.token, /^whpt_/);
    assert.deepEqual([session.tenant_id, session.read_only], [tenantA, false]);

    const portal = new PlatformClient(PLATFORM_URL, session.token);
    const made = await portal.endpoints.create({ url: 'https://example.com/hooks/portal', events: [unique('quiet')] });
    assert.equal(made.tenant_id, tenantA);
    const seen: string[] = [];
    for await (const endpoint of portal.endpoints.list()) seen.push(endpoint.id);
    assert.deepEqual(seen.sort(), [made.id, endpointA.id].sort());
    await assert.rejects(portal.endpoints.get(endpointB.id), (err: PlatformError) => err instanceof PlatformError && err.status === 404 && err.code === 'not_found');
    await client.tenants.delete(tenantA);
    await client.tenants.delete(tenantB);
  });

  it('a read-only session’s token reads, and a change throws PlatformError 403 portal_read_only', async () => {
    const tenant = unique('cus_a');
    const endpoint = await quietEndpoint(tenant);
    const readOnly = new PlatformClient(PLATFORM_URL, (await client.portalSessions.create({ tenant_id: tenant, read_only: true })).token);
    assert.equal((await readOnly.endpoints.get(endpoint.id)).id, endpoint.id);
    await assert.rejects(readOnly.endpoints.update(endpoint.id, { description: 'changed' }), (err: PlatformError) => err instanceof PlatformError && err.status === 403 && err.code === 'portal_read_only');
    assert.equal((await client.endpoints.get(endpoint.id)).description, endpoint.description);
    await client.tenants.delete(tenant);
  });

  it('revoking every session ends a token at once: it then throws 401 invalid_portal_token', async () => {
    const tenant = unique('cus_a');
    const endpoint = await quietEndpoint(tenant);
    const portal = new PlatformClient(PLATFORM_URL, (await client.portalSessions.create({ tenant_id: tenant })).token);
    assert.equal((await portal.endpoints.get(endpoint.id)).id, endpoint.id);
    assert.ok((await client.portalSessions.revokeAll()) >= 1);
    await assert.rejects(portal.endpoints.get(endpoint.id), (err: PlatformError) => err instanceof PlatformError && err.status === 401 && err.code === 'invalid_portal_token');
    await client.tenants.delete(tenant);
  });
});

describe('events', () => {
  it('sends events: a new one is accepted, a repeat of its key answers the same event', async () => {
    const type = unique('order.created');
    const first = await client.events.send(type, { order_id: 42 }, { idempotencyKey: `${type}_42` });
    const repeat = await client.events.send(type, { order_id: 42 }, { idempotencyKey: `${type}_42` });
    const other = await client.events.send(type, { order_id: 43 });
    assert.equal(first.type, type);
    assert.equal(repeat.id, first.id);
    assert.notEqual(other.id, first.id);
    assert.match(other.idempotency_key ?? '', /^[0-9a-f-]{36}$/);
  });

  it('retries a send whose answer was lost to a time-out, and one event results', async () => {
    const type = unique('payment.captured');
    let calls = 0;
    // The first try reaches the platform, which stores the event; its answer never comes back.
    const losesFirstAnswer = new PlatformClient(PLATFORM_URL, env('PLATFORM_API_KEY'), {
      timeoutMs: 2_000,
      fetch: async (request) => {
        calls++;
        const answer = await fetch(request);
        if (calls === 1) {
          // The time-out's timer does not keep Node running (a real lost answer's open socket would).
          const keepAlive = setInterval(() => undefined, 1_000);
          await new Promise((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason))).finally(() => clearInterval(keepAlive));
        }
        return answer;
      },
    });
    const sent = await losesFirstAnswer.events.send(type, { amount: 100 });
    assert.equal(calls, 2);
    const stored = [];
    for await (const event of client.events.list({ type })) stored.push(event);
    assert.deepEqual(stored.map((e) => [e.id, e.idempotency_key]), [[sent.id, sent.idempotency_key]]);
  });

  it('pages through events, newest first, each once', async () => {
    const type = unique('page.test');
    const sent: number[] = [];
    for (let i = 0; i < 7; i++) sent.push((await client.events.send(type, { i })).id);
    const listed: number[] = [];
    for await (const event of client.events.list({ type, limit: 3 })) listed.push(event.id);
    assert.deepEqual(listed, [...sent].reverse());
  });

  it('waits out a Free-tier account’s burst limit (429) and every send succeeds within 5 retries', async () => {
    const waits: number[] = [];
    const free = new PlatformClient(PLATFORM_URL, env('PLATFORM_FREE_API_KEY'), {
      sleep: (ms) => {
        waits.push(ms);
        return new Promise((resolve) => setTimeout(resolve, ms));
      },
    });
    const type = unique('burst.test');
    // The Free tier allows 10 calls a minute: the 11th and 12th are answered 429 until the window ends.
    const ids = [];
    for (let i = 0; i < 12; i++) ids.push((await free.events.send(type, { i })).id);
    assert.equal(new Set(ids).size, 12);
    assert.ok(waits.length >= 1, 'the burst limit was reached');
    assert.ok(waits.length <= 2 * 5, `at most 5 retries per send: ${waits.length} waits`);
    // Each wait is the Retry-After of the 429 (at least 1 s) doubled per retry, plus at most 500 ms.
    assert.ok(waits.every((ms) => ms >= 1000), `waits ${waits.join(', ')}`);
  });
});

describe('deliveries, secrets and a receiver written with the receiver library', () => {
  let secrets: string[] = [];
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    receiver = await startReceiver(() => secrets);
  });
  after(() => receiver.close());

  it('delivers an event sent with the SDK to the receiver, which verifies it, and reads the delivery; after a rotation the new secret signs', async () => {
    const type = unique('invoice.paid');
    const endpoint = await client.endpoints.create({ url: receiver.url, events: [type] });
    secrets = [endpoint.secret];

    const sent = await client.events.send(type, { invoice: 'inv_1', total: 12.5, note: 'naïve – 日本語' });
    const event = await delivered(sent.id);
    const [delivery] = event.deliveries;
    assert.equal(delivery.endpoint_id, endpoint.id);
    assert.equal(delivery.attempts[0].status_code, 200);
    assert.deepEqual(receiver.received.filter((r) => r.id === String(sent.id)), [{ status: 200, id: String(sent.id), type, data: { invoice: 'inv_1', total: 12.5, note: 'naïve – 日本語' } }]);

    // Grace 0: the old secret signs nothing from now on, so the receiver must hold the new one.
    const rotated = await client.endpoints.rotateSecret(endpoint.id, { gracePeriodSeconds: 0 });
    assert.notEqual(rotated, endpoint.secret);
    assert.equal(await client.endpoints.secret(endpoint.id), rotated);
    secrets = [rotated];
    const after = await client.events.send(type, { invoice: 'inv_2' });
    await delivered(after.id);
    assert.deepEqual(receiver.received.filter((r) => r.id === String(after.id)).map((r) => r.status), [200]);

    await client.endpoints.delete(endpoint.id);
  });

  it('a delivery the receiver refuses can be cancelled, then retried once the receiver accepts it', async () => {
    const type = unique('refund.issued');
    const endpoint = await client.endpoints.create({ url: receiver.url, events: [type] });
    secrets = ['whsec_' + Buffer.alloc(24).toString('base64')];
    const sent = await client.events.send(type, { refund: 'rf_1' });
    await eventually(async () => (await client.events.get(sent.id)).deliveries[0]?.status === 'retrying');
    assert.equal((await client.deliveries.cancel(sent.id, endpoint.id)).endpoint_id, endpoint.id);
    await eventually(async () => (await client.events.get(sent.id)).deliveries[0].status === 'cancelled');

    secrets = [endpoint.secret];
    const retried = await client.deliveries.retry(sent.id, endpoint.id);
    assert.equal(retried.endpoint_id, endpoint.id);
    await delivered(sent.id);
    await client.endpoints.delete(endpoint.id);
  });
});
