import { Client, Connection } from '@temporalio/client';
import { mkdtemp } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { isPortOpen } from '../../src/infra/embedded-servers';
import { DELIVERY_WORKFLOW_TYPE } from '../../src/temporal/delivery-scheduler';
import { ChildRole, spawnRole } from '../support/child-role';
import { groupAlive, ownPlatformEnv, signUp } from '../support/own-platform';
import { eventually } from '../support/platform';
import { readTestCertificate } from '../support/test-ca';

/**
 * `npm start` stopped with SIGTERM while deliveries are in flight: it takes nothing new,
 * gives work in flight a bounded grace, abandons what is left to Temporal and stops every process it
 * started. After a restart on the same DATA_DIR every acknowledged event is delivered; an attempt
 * that ended within the grace is recorded once, and one cut at the deadline is made again.
 */
describe('npm start stopped with SIGTERM under load', () => {
  it('exits with every process it started, and loses nothing acknowledged', async () => {
    const dataDir = await mkdtemp(path.join(process.env.TEST_DATA_DIR as string, 'stop-under-load-'));
    const env = {
      ...(await ownPlatformEnv(dataDir)),
      // Every first attempt of the burst in flight at once (the default limits would queue most of them).
      DELIVERY_MAX_IN_FLIGHT_PER_ACCOUNT: '200',
      DELIVERY_MAX_IN_FLIGHT_PER_ENDPOINT: '100',
    };
    // Three receivers (three origins: the sender's connections per origin are not shared):
    // `stuck` answers nothing until after the stop, `held` answers once the stop has begun, `quick` at once.
    const stuck = await heldReceiver();
    const held = await heldReceiver();
    const quick = await heldReceiver();
    quick.release();
    // Through npm, as `npm start`: the signal goes to the npm process, as a process manager sends it.
    let platform: ChildRole = spawnRole('start', env, { npm: true });
    try {
      const apiUrl = (await platform.waitFor(/API\s+(http:\/\/\S+)/))[1];
      const { call } = signUp(env, apiUrl, 'stop@example.test', 'stop');
      const endpoints: Record<string, string> = {};
      for (const [name, receiver] of Object.entries({ stuck, held, quick })) {
        const created = await call('POST', '/api/v1/webhooks/endpoints', { url: `${receiver.url}/${name}` });
        expect(created.status).toBe(201);
        endpoints[created.body.id] = name;
      }

      // Load: every event goes to all three endpoints; the first attempts to `stuck` and `held` are
      // handed off (their receivers hold them past the 2 s budget) and stay in flight.
      const acknowledged: number[] = [];
      const ingest = async (i: number) => {
        const res = await call('POST', '/api/v1/webhooks/events', { type: 'stop.load', data: { i } }).catch(() => undefined);
        if (res?.status === 202) acknowledged.push(res.body.id);
        else await new Promise((r) => setTimeout(r, 100));
        return res?.status === 202;
      };
      const BURST = 40;
      // Admission may ask a burst to wait (503 with Retry-After): repeated until each is acknowledged.
      const ingestSurely = async (i: number) => {
        while (!(await ingest(i))) await new Promise((r) => setTimeout(r, 400));
      };
      for (let i = 0; i < BURST; i += 8) await Promise.all(Array.from({ length: 8 }, (_, k) => ingestSurely(i + k)));
      expect(acknowledged).toHaveLength(BURST);
      await eventually(async () => (stuck.received.size === BURST && held.received.size === BURST) || undefined, 120_000);

      // More load goes on while the stop begins; what is acknowledged of it counts too.
      let loading = true;
      const moreLoad = (async () => {
        for (let i = BURST; loading; i++) await ingest(i);
      })();
      platform.process.kill('SIGTERM');
      await platform.waitFor(/SIGTERM: stopping/, 60_000);
      // The held POSTs are answered within the grace; the stuck ones are not.
      held.release();
      // Every process of the group (npm, node, Temporal, FerretDB) is gone, although the stuck POSTs
      // are never answered before it: the stop cut them at its deadline instead of waiting.
      const pgid = platform.process.pid as number;
      await eventually(async () => !groupAlive(pgid) || undefined, 120_000);
      const first = platform.process;
      if (first.exitCode === null && first.signalCode === null) await new Promise((resolve) => first.once('exit', resolve));
      loading = false;
      await moreLoad;
      expect(platform.process.exitCode).toBe(0);
      expect(await isPortOpen(Number(env.EMBEDDED_MONGO_PORT))).toBe(false);
      expect(await isPortOpen(Number(env.EMBEDDED_TEMPORAL_PORT))).toBe(false);

      // The stop log, in order: nothing new taken; the roles' work in flight finished or abandoned; the servers stopped.
      const log = platform.output();
      const at = (pattern: RegExp) => {
        const index = log.search(pattern);
        expect(index).toBeGreaterThanOrEqual(0);
        return index;
      };
      const began = at(/SIGTERM: stopping\. Nothing new is taken/);
      const api = at(/API: stopped taking calls/);
      const worker = at(/Worker: stopped taking tasks; abandoned at the deadline: [1-9]\d* handed-off POSTs/);
      const servers = [at(/Temporal dev server (stopped|killed)/), at(/FerretDB (stopped|killed)/)];
      const stopped = at(/Stopped: API, worker, (Temporal dev server, FerretDB|FerretDB, Temporal dev server) in [\d.]+ s\./);
      expect(Math.min(api, worker)).toBeGreaterThan(began);
      expect(Math.min(...servers)).toBeGreaterThan(Math.max(api, worker));
      expect(stopped).toBeGreaterThan(Math.max(...servers));

      stuck.release();
      platform = spawnRole('start', env, { npm: true });
      await platform.waitFor(/Platform ready/);
      for (const id of acknowledged) {
        const deliveries = await eventually(async () => {
          const d = (await call('GET', `/api/v1/webhooks/events/${id}`)).body.deliveries as Array<{ endpoint_id: string; status: string; attempts: Array<{ attempt: number; status_code: number }> }>;
          return d.length === 3 && d.every((x) => x.status === 'succeeded') ? d : undefined;
        }, 180_000, 500);
        for (const delivery of deliveries) {
          // One attempt each: a POST cut by the stop left no record, so its attempt was made again as the same attempt.
          expect(delivery.attempts.map((a) => [a.attempt, a.status_code])).toEqual([[1, 200]]);
        }
      }
      // Every delivery workflow has closed: nothing more will be posted, so the receivers' counts are final.
      const temporal = await Connection.connect({ address: `127.0.0.1:${env.EMBEDDED_TEMPORAL_PORT}` });
      try {
        const client = new Client({ connection: temporal });
        await eventually(async () => (await client.workflow.count(`WorkflowType = "${DELIVERY_WORKFLOW_TYPE}" AND ExecutionStatus = "Running"`)).count === 0 || undefined, 60_000, 500);
      } finally {
        await temporal.close();
      }
      for (const id of acknowledged.slice(0, BURST)) {
        // Answered within the grace: recorded then, never posted again.
        expect(held.received.get(id)).toBe(1);
        // Cut at the deadline without an answer: posted again after the restart (its receiver sees it twice).
        expect(stuck.received.get(id)).toBe(2);
      }
    } finally {
      await platform.crash();
      for (const receiver of [stuck, held, quick]) await receiver.close();
    }
  }, 420_000);
});

/** An HTTPS receiver that holds every request until `release()`, then answers 200; counts requests per event id. */
async function heldReceiver() {
  const { cert, key } = readTestCertificate();
  const received = new Map<number, number>();
  let released = false;
  const waiting: Array<() => void> = [];
  const server = https.createServer({ cert, key }, (req, res) => {
    req.resume();
    req.on('end', () => {
      const id = Number(req.headers['x-webhook-id']);
      received.set(id, (received.get(id) ?? 0) + 1);
      const answer = () => {
        if (!res.destroyed) res.writeHead(200).end('ok');
      };
      if (released) answer();
      else waiting.push(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    release() {
      released = true;
      for (const answer of waiting.splice(0)) answer();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
