import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { verifySync } from '../../receivers/typescript/src/node';
import { freePort } from '../../src/infra/embedded-servers';
import { ensureLocalListenerCa, issueListenerCertificate } from '../../src/infra/local-listener-ca';
import { listenerEndpointService } from '../../src/main/cli-listen';
import type { Platform } from '../../src/main/platform';
import { roleEnv } from '../support/child-role';
import { apiClient, createAccountWithKey, eventually, startTestPlatform } from '../support/platform';
import { startReceiver } from '../support/receiver';
import { spawnShell } from '../support/shell-process';

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/** The process that runs cli.ts: the shell's own (exec), or behind a launcher the deepest descendant running it. */
function listenerPid(pid: number): number {
  let children: number[] = [];
  try {
    children = execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).trim().split('\n').map(Number);
  } catch {
    // No children.
  }
  for (const child of children) {
    const deeper = listenerPid(child);
    if (commandLine(deeper).includes('cli.ts')) return deeper;
  }
  return pid;
}

/**
 * `cli listen` (docs/receiving.md#cli-listen) as a child process against the test stack, and the
 * DELIVERY_LOCAL_LISTENER exception it relies on: with the flag on, deliveries reach the
 * listener and only it (its CA, its name); with it off, the SSRF rules hold as before.
 */
/** As `npm run cli -- listen` runs it (package.json): one node process, so a signal reaches the listener itself. */
const LISTEN = `exec ${process.execPath} --import tsx src/main/cli.ts listen`;
const READY = /Ready: each delivery/;

function listenerEnv(platform: Platform, extra: Record<string, string> = {}) {
  return { ...process.env, ...roleEnv(platform), DELIVERY_ALLOW_PRIVATE_NETWORKS: 'false', DELIVERY_LOCAL_LISTENER: 'true', LOG_LEVEL: 'silent', ...extra };
}

async function sendEvent(platform: Platform, key: string, type = 'order.created'): Promise<number> {
  const res = await apiClient(platform, key).post('/api/v1/webhooks/events', { type, data: { order_id: 42 } });
  expect(res.status).toBe(202);
  expect(res.body.destinations).toBe(1);
  return res.body.id;
}

async function deliveryOf(platform: Platform, key: string, eventId: number, until: (d: any) => boolean, timeoutMs = 30_000) {
  return eventually(async () => {
    const d = (await apiClient(platform, key).get(`/api/v1/webhooks/events/${eventId}`)).body.deliveries?.[0];
    return d && until(d) ? d : undefined;
  }, timeoutMs);
}

describe('cli listen with DELIVERY_LOCAL_LISTENER on', () => {
  let platform: Platform;

  beforeAll(async () => {
    platform = await startTestPlatform({ env: { DELIVERY_LOCAL_LISTENER: 'true', DELIVERY_ALLOW_PRIVATE_NETWORKS: 'false' } });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('prints a delivery with its event id, type, attempt and verified signature, and answers 200', async () => {
    const { accountId, key } = await createAccountWithKey(platform);
    const listener = spawnShell(`${LISTEN} --account ${accountId} --events 'order.*'`, listenerEnv(platform));
    try {
      await listener.waitFor(READY);
      expect(listener.output()).toMatch(/on https:\/\/listen\.localhost:\d+\//);
      const eventId = await sendEvent(platform, key);
      await listener.waitFor(new RegExp(`event ${eventId}  order\\.created  attempt 1  signature verified  → 200`));
      const delivery = await deliveryOf(platform, key, eventId, (d) => d.status === 'succeeded');
      expect(delivery.attempts.map((a: any) => a.status_code)).toEqual([200]);
    } finally {
      await listener.kill();
    }
  });

  it('forwards the exact bytes and headers to the app and answers the platform with the app status', async () => {
    const { accountId, key } = await createAccountWithKey(platform);
    const app = await startReceiver((_req, i) => (i === 0 ? { status: 503, body: 'app says no' } : { status: 204 }));
    const listener = spawnShell(`${LISTEN} --account ${accountId} --forward-to ${app.url}/webhooks`, listenerEnv(platform));
    try {
      const secret = (await listener.waitFor(/Secret\s+(whsec_\S+)/))[1];
      await listener.waitFor(READY);
      const eventId = await sendEvent(platform, key);
      const delivery = await deliveryOf(platform, key, eventId, (d) => d.status === 'succeeded');
      expect(delivery.attempts.map((a: any) => a.status_code)).toEqual([503, 204]);
      expect(delivery.attempts[0].response_body).toBe('app says no');
      expect(listener.output()).toMatch(new RegExp(`event ${eventId}  order\\.created  attempt 1  signature verified  → 503 from ${app.url}/webhooks`));
      expect(listener.output()).toMatch(new RegExp(`event ${eventId}  order\\.created  attempt 2  signature verified  → 204`));
      // The app got the platform's request as sent: it verifies with the endpoint's secret.
      for (const received of app.received) {
        expect(received.path).toBe('/webhooks');
        expect(verifySync(received.rawBody, received.headers, { secrets: [secret] }).event?.id).toBe(eventId);
        expect(received.headers['x-webhook-signature']).toMatch(/^sha256=/);
        expect(received.headers['user-agent']).toBe('devops-platform-webhooks/1.0');
      }
    } finally {
      await listener.kill();
      await app.close();
    }
  });

  it('answers 502 when the app cannot be reached', async () => {
    const { accountId, key } = await createAccountWithKey(platform);
    const listener = spawnShell(`${LISTEN} --account ${accountId} --forward-to http://127.0.0.1:${await freePort()}/webhooks`, listenerEnv(platform));
    try {
      await listener.waitFor(READY);
      const eventId = await sendEvent(platform, key);
      const delivery = await deliveryOf(platform, key, eventId, (d) => d.attempts.length >= 1);
      expect(delivery.attempts[0].status_code).toBe(502);
      await listener.waitFor(/attempt 1  signature verified  → 502 \(http:\/\/127\.0\.0\.1:\d+\/webhooks unreachable: ECONNREFUSED\)/);
    } finally {
      await listener.kill();
    }
  });

  it.each(['SIGINT', 'SIGTERM'] as const)('removes its endpoint and exits 0 on %s', async (signal) => {
    const { accountId, key } = await createAccountWithKey(platform);
    const listener = spawnShell(`${LISTEN} --account ${accountId}`, listenerEnv(platform));
    const endpointId = (await listener.waitFor(/Endpoint\s+(ep_\S+)/))[1];
    await listener.waitFor(READY);
    expect((await apiClient(platform, key).get('/api/v1/webhooks/endpoints')).body.data.map((e: any) => e.id)).toEqual([endpointId]);
    expect(await listener.interrupt(signal)).toBe(0);
    expect(listener.output()).toContain(`Endpoint ${endpointId} removed.`);
    expect((await apiClient(platform, key).get('/api/v1/webhooks/endpoints')).body.data).toEqual([]);
  });

  it('stops and exits 0 when its endpoint was deleted meanwhile, saying so (no error)', async () => {
    const { accountId, key } = await createAccountWithKey(platform);
    const listener = spawnShell(`${LISTEN} --account ${accountId}`, listenerEnv(platform));
    const endpointId = (await listener.waitFor(/Endpoint\s+(ep_\S+)/))[1];
    await listener.waitFor(READY);
    expect((await apiClient(platform, key).delete(`/api/v1/webhooks/endpoints/${endpointId}`)).status).toBe(204);
    expect(await listener.interrupt('SIGINT')).toBe(0);
    expect(listener.output()).toContain(`Stopped. Endpoint ${endpointId} had been deleted already.`);
    expect(listener.output()).not.toContain('"error"');
  });

  it('removes its endpoint and exits 0 on SIGINT even when busy as the signal comes (held stopped meanwhile)', async () => {
    const { accountId, key } = await createAccountWithKey(platform);
    const listener = spawnShell(`${LISTEN} --account ${accountId}`, listenerEnv(platform));
    const endpointId = (await listener.waitFor(/Endpoint\s+(ep_\S+)/))[1];
    await listener.waitFor(READY);
    // Held at the racy point: a launcher relaying the signal waits only briefly for the listener to take it.
    const pid = listenerPid(listener.process.pid as number);
    process.kill(pid, 'SIGSTOP');
    const exited = listener.interrupt('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 500));
    process.kill(pid, 'SIGCONT');
    expect(await exited).toBe(0);
    expect(listener.output()).toContain(`Endpoint ${endpointId} removed.`);
    expect((await apiClient(platform, key).get('/api/v1/webhooks/endpoints')).body.data).toEqual([]);
  });

  it('leaves a killed listener\'s endpoint visible as temporary, and the next listener removes it', async () => {
    const { accountId, key } = await createAccountWithKey(platform);
    const crashed = spawnShell(`${LISTEN} --account ${accountId}`, listenerEnv(platform));
    const abandoned = (await crashed.waitFor(/Endpoint\s+(ep_\S+)/))[1];
    await crashed.waitFor(READY);
    await crashed.kill();
    const left = (await apiClient(platform, key).get(`/api/v1/webhooks/endpoints/${abandoned}`)).body;
    expect(left.url).toMatch(/^https:\/\/listen\.localhost:\d+\/$/);
    expect(left.description).toMatch(/^cli listen on \S+ \(pid \d+\): temporary/);

    const next = spawnShell(`${LISTEN} --account ${accountId}`, listenerEnv(platform));
    try {
      await next.waitFor(READY);
      expect(next.output()).toContain(`Removed endpoint ${abandoned}`);
      expect((await apiClient(platform, key).get(`/api/v1/webhooks/endpoints/${abandoned}`)).status).toBe(404);
    } finally {
      await next.kill();
    }
  });

  it('removes only listeners\' endpoints: an HTTPS endpoint whose description reads as a gone listener\'s is kept', async () => {
    const { accountId, key } = await createAccountWithKey(platform);
    // A pid above Linux's highest (2^22) is never running.
    const description = `cli listen on ${os.hostname()} (pid 4194305) is how we tested it; production receiver`;
    const kept = await apiClient(platform, key).post('/api/v1/webhooks/endpoints', { url: 'https://example.com/hooks', events: ['nothing.sent'], description });
    expect(kept.status).toBe(201);

    const listener = spawnShell(`${LISTEN} --account ${accountId} --events 'order.*'`, listenerEnv(platform));
    try {
      await listener.waitFor(READY);
      expect(listener.output()).not.toContain('Removed endpoint');
      expect((await apiClient(platform, key).get(`/api/v1/webhooks/endpoints/${kept.body.id}`)).status).toBe(200);
    } finally {
      await listener.kill();
    }
  });

  it('trusts only its own DATA_DIR\'s listener CA: a listen.localhost server with another CA gets nothing', async () => {
    const { accountId, key } = await createAccountWithKey(platform);
    const otherCa = await ensureLocalListenerCa(await mkdtemp(path.join(process.env.TEST_DATA_DIR as string, 'other-ca-')));
    const impostor = await issueListenerCertificate(otherCa);
    let requests = 0;
    const server = createServer({ ...impostor }, (_req, res) => {
      requests += 1;
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    await ensureLocalListenerCa(platform.config.dataDir);
    const endpoints = await listenerEndpointService(platform.config, platform.db, platform.temporal);
    await endpoints.create(accountId, { url: `https://listen.localhost:${(server.address() as AddressInfo).port}/` });
    try {
      const eventId = await sendEvent(platform, key);
      const delivery = await deliveryOf(platform, key, eventId, (d) => d.attempts.length >= 1);
      expect(delivery.attempts[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/certificate/i) });
      expect(requests).toBe(0);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it.each(['https://127.0.0.1:8443/', 'https://localhost:8443/', 'https://listen.localhost:8443/'])(
    'still refuses %s at registration through the API (the exception is only for the listener)',
    async (url) => {
      const { key } = await createAccountWithKey(platform);
      const res = await apiClient(platform, key).post('/api/v1/webhooks/endpoints', { url });
      expect([res.status, res.body.code]).toEqual([422, 'destination_not_allowed']);
    },
  );
});

describe('cli listen with DELIVERY_LOCAL_LISTENER off (as in production and compose)', () => {
  let platform: Platform;

  beforeAll(async () => {
    platform = await startTestPlatform({ env: { DELIVERY_ALLOW_PRIVATE_NETWORKS: 'false' } });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('is off by default where MONGODB_URI or TEMPORAL_ADDRESS is set', () => {
    expect(platform.config.delivery.localListener).toBe(false);
  });

  it('refuses to start when its own configuration has the flag off', async () => {
    const { accountId } = await createAccountWithKey(platform);
    const listener = spawnShell(`${LISTEN} --account ${accountId}`, listenerEnv(platform, { DELIVERY_LOCAL_LISTENER: '' }));
    expect(await listener.exited).toBe(1);
    expect(listener.output()).toContain('DELIVERY_LOCAL_LISTENER=true');
  });

  it('does not trust the listener: its deliveries fail and nothing reaches it', async () => {
    const { accountId, key } = await createAccountWithKey(platform);
    const listener = spawnShell(`${LISTEN} --account ${accountId}`, listenerEnv(platform));
    try {
      await listener.waitFor(READY);
      const eventId = await sendEvent(platform, key);
      const delivery = await deliveryOf(platform, key, eventId, (d) => d.attempts.length >= 2);
      for (const attempt of delivery.attempts) expect(attempt).toMatchObject({ status_code: null, error: expect.stringMatching(/resolves to a private or reserved address/) });
      expect(listener.output()).not.toMatch(/event \d+/);
    } finally {
      await listener.kill();
    }
  });

  it('refuses an endpoint on 127.0.0.1 at registration, as before', async () => {
    const { key } = await createAccountWithKey(platform);
    const res = await apiClient(platform, key).post('/api/v1/webhooks/endpoints', { url: 'https://127.0.0.1:8443/' });
    expect([res.status, res.body.code]).toEqual([422, 'destination_not_allowed']);
  });
});
