import { mkdtemp, readFile } from 'node:fs/promises';
import path from 'node:path';
import { isPortOpen } from '../../src/infra/embedded-servers';
import { spawnRole } from '../support/child-role';
import { ownPlatformEnv, signUp } from '../support/own-platform';
import { eventually } from '../support/platform';
import { startReceiver } from '../support/receiver';

/**
 * `npm start` as a person runs it: embedded Temporal (with its Web UI) and FerretDB under
 * DATA_DIR. A SIGKILL of everything and a second start on the same DATA_DIR lose nothing:
 * keys, endpoints and a delivery sleeping between attempts all survive.
 */
describe('npm start', () => {
  it('comes back after a SIGKILL of the whole platform with every record and sleeping delivery intact', async () => {
    const dataDir = await mkdtemp(path.join(process.env.TEST_DATA_DIR as string, 'npm-start-'));
    const env = await ownPlatformEnv(dataDir);
    const receiver = await startReceiver((_req, i) => (i < 2 ? { status: 500 } : { status: 200 }));
    let platform = spawnRole('start', env);
    try {
      const apiUrl = (await platform.waitFor(/API\s+(http:\/\/\S+)/))[1];
      expect(platform.output()).toMatch(new RegExp(`Temporal UI\\s+http://127.0.0.1:${env.EMBEDDED_TEMPORAL_UI_PORT}`));
      expect((await fetch(`${apiUrl}/readyz`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${env.EMBEDDED_TEMPORAL_UI_PORT}/`)).status).toBe(200);

      const { call } = signUp(env, apiUrl, 'durable@example.test', 'durable');
      const endpoint = (await call('POST', '/api/v1/webhooks/endpoints', { url: `${receiver.url}/durable` })).body;
      const eventId = (await call('POST', '/api/v1/webhooks/events', { type: 'durable.event', data: { n: 1 } })).body.id;
      await eventually(async () => (await call('GET', `/api/v1/webhooks/events/${eventId}`)).body.deliveries[0].attempt_count === 2 || undefined, 20_000);

      await platform.crash();
      // The SIGKILL reached the embedded servers too (their sockets close as the kernel reaps them).
      await eventually(async () => !(await isPortOpen(Number(env.EMBEDDED_MONGO_PORT))) || undefined, 5_000);

      platform = spawnRole('start', env);
      const again = (await platform.waitFor(/API\s+(http:\/\/\S+)/))[1];
      expect(again).toBe(apiUrl);
      const endpoints = await call('GET', '/api/v1/webhooks/endpoints');
      expect(endpoints.status).toBe(200);
      expect(endpoints.body.data.map((e: { id: string }) => e.id)).toEqual([endpoint.id]);
      const delivery = await eventually(async () => {
        const d = (await call('GET', `/api/v1/webhooks/events/${eventId}`)).body.deliveries[0];
        return d.status === 'succeeded' ? d : undefined;
      }, 60_000);
      expect(delivery.attempts.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2, 3]);
      expect(receiver.received).toHaveLength(3);

      // SIGTERM stops everything cleanly: the process exits and its servers are gone.
      await platform.stop();
      expect(platform.process.exitCode).toBe(0);
      expect(await isPortOpen(Number(env.EMBEDDED_MONGO_PORT))).toBe(false);
      expect(await isPortOpen(Number(env.EMBEDDED_TEMPORAL_PORT))).toBe(false);
    } finally {
      await platform.crash();
      await receiver.close();
    }
  }, 300_000);

  it.each([
    ['FerretDB', 'ferretdb'],
    ['Temporal', 'temporal'],
  ])('starts a killed embedded %s again and goes on delivering', async (label, name) => {
    const dataDir = await mkdtemp(path.join(process.env.TEST_DATA_DIR as string, `npm-start-${name}-`));
    const env = await ownPlatformEnv(dataDir);
    const receiver = await startReceiver(() => ({ status: 200 }));
    const platform = spawnRole('start', env);
    try {
      const apiUrl = (await platform.waitFor(/API\s+(http:\/\/\S+)/))[1];
      const { call } = signUp(env, apiUrl, `${name}@example.test`, name);
      await call('POST', '/api/v1/webhooks/endpoints', { url: `${receiver.url}/${name}` });

      process.kill(Number(await readFile(path.join(dataDir, name, 'server.pid'), 'utf8')), 'SIGKILL');
      await platform.waitFor(new RegExp(`"server":"${label}[^"]*","exit":"killed by SIGKILL".*started again`), 60_000);
      // An ingest refused while the server was down (503) is repeated, as a client does, with its key.
      const ingest = await eventually(async () => {
        const answer = await call('POST', '/api/v1/webhooks/events', { type: 'after.restart', data: { name }, idempotency_key: `after-${name}` });
        return answer.status === 202 ? answer : undefined;
      }, 60_000);
      await eventually(async () => receiver.received.length === 1 || undefined, 60_000);
      expect(JSON.parse(receiver.received[0].rawBody).data).toEqual({ name });
      expect((await call('GET', `/api/v1/webhooks/events/${ingest.body.id}`)).body.status).toBe('delivered');
      expect(platform.process.exitCode).toBeNull();
    } finally {
      await platform.crash();
      await receiver.close();
    }
  }, 300_000);

  it.each([
    ['PORT', 'not-a-port'],
    ['EMBEDDED_MONGO_PORT', '70000'],
    ['DELIVERY_ALLOW_PRIVATE_NETWORKS', 'maybe'],
    ['MONGODB_URI', 'postgres://x'],
  ])('refuses to start with a bad %s and names it', async (variable, value) => {
    const role = spawnRole('start', { [variable]: value });
    await new Promise((resolve) => role.process.once('exit', resolve));
    expect(role.process.exitCode).toBe(78);
    expect(role.output()).toContain(`Invalid configuration: ${variable}`);
  });
});
