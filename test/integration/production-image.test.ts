import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { verifySync } from '../../receivers/typescript/src/node';
import { freePort } from '../../src/infra/embedded-servers';
import { PROJECT_ROOT } from '../../src/infra/tools';
import { ChildRole, spawnProcess } from '../support/child-role';
import { composeService } from '../support/compose-service';
import { buildDockerfile } from '../support/dockerfile-build';
import { apiCaller } from '../support/own-platform';
import { eventually } from '../support/platform';
import { startOtlpSink } from '../support/otlp-sink';
import { startReceiver } from '../support/receiver';

/**
 * The production image without a Docker engine: the Dockerfile's stages repeated in a temporary
 * folder from exactly what they copy (the Dockerfile and .dockerignore are read, not restated),
 * their RUN steps as written (`npm ci`, `npm run build`, `npm prune --omit=dev`), then the compiled
 * API and worker started from the final stage's pruned tree with the image's and docker-compose.yml's
 * environment, as compose starts them. Only the addresses differ: the test run's Temporal and store,
 * a fresh database and task queue, loopback ports, and an OTLP sink for Jaeger that gets every trace.
 */
describe('the production image', () => {
  it('builds from what the Dockerfile copies, and its API and worker deliver a signed event', async () => {
    const workDir = await mkdtemp(path.join(process.env.TEST_DATA_DIR as string, 'image-'));
    const dbName = `image_${randomBytes(4).toString('hex')}`;
    const receiver = await startReceiver();
    const sink = await startOtlpSink();
    const roles: ChildRole[] = [];
    try {
      const image = await buildDockerfile({
        contextDir: PROJECT_ROOT,
        workDir,
        // A build container's environment; the npm cache the checkout's own install filled is used first.
        runEnv: { PATH: process.env.PATH, HOME: process.env.HOME, npm_config_prefer_offline: 'true' },
      });
      const filesBefore = await filesIn(image.dir);

      const api = composeService('api');
      const worker = composeService('worker');
      expect(image.cmd).toEqual(api.command);
      const apiPort = await freePort();
      const apiUrl = `http://127.0.0.1:${apiPort}`;
      const shared = {
        PATH: process.env.PATH,
        // Trusts the receiver's test CA, as a deployment trusts its receivers' CAs.
        NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS,
        MONGODB_URI: process.env.MONGODB_URI,
        MONGODB_DB: dbName,
        TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS,
        TEMPORAL_TASK_QUEUE: `image-${randomBytes(4).toString('hex')}`,
        SECRETS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        METRICS_HOST: '127.0.0.1',
        OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        // compose traces one call in ten; the one event here is traced, to show that both processes export.
        OTEL_TRACES_SAMPLER_ARG: '1',
        // The receiver listens on 127.0.0.1, which production refuses unless both say otherwise.
        DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true',
        ALLOW_UNSAFE_SETTINGS_IN_PRODUCTION: 'true',
      };
      const apiEnv: NodeJS.ProcessEnv = { ...image.env, ...api.environment, ...shared, HOST: '127.0.0.1', PORT: String(apiPort), PUBLIC_URL: apiUrl, METRICS_PORT: String(await freePort()) };
      const workerEnv: NodeJS.ProcessEnv = { ...image.env, ...worker.environment, ...shared, METRICS_PORT: String(await freePort()) };
      expect(apiEnv.NODE_ENV).toBe('production');
      expect(workerEnv.NODE_ENV).toBe('production');

      const start = (label: string, command: string[], env: NodeJS.ProcessEnv) => {
        const role = spawnProcess(label, command[0] as string, command.slice(1), { cwd: image.dir, env });
        roles.push(role);
        return role;
      };
      const apiRole = start('api', api.command, apiEnv);
      const workerRole = start('worker', worker.command, workerEnv);
      await apiRole.waitFor(/Platform ready/, 180_000);
      await workerRole.waitFor(/Platform ready/, 180_000);

      // An operator's first steps, with the image's CLI (docker compose exec api node dist/src/main/cli.js ...).
      const cli = (...args: string[]) => {
        const res = spawnSync('node', ['dist/src/main/cli.js', ...args], { cwd: image.dir, env: apiEnv, encoding: 'utf8' });
        if (res.status !== 0) throw new Error(`cli ${args.join(' ')} exited ${res.status}:\n${res.stdout}${res.stderr}`);
        return JSON.parse(res.stdout);
      };
      const account = cli('account', 'create', '--email', 'image@example.test', '--tier', 'team');
      const { key } = cli('key', 'create', '--account', account.id, '--product', 'weh', '--label', 'image');
      const call = apiCaller(apiUrl, key);

      const endpoint = await call('POST', '/api/v1/webhooks/endpoints', { url: `${receiver.url}/image` });
      expect(endpoint.status).toBe(201);
      const event = await call('POST', '/api/v1/webhooks/events', { type: 'image.built', data: { stage: 'final' } });
      expect(event.status).toBe(202);
      const delivery = await eventually(async () => {
        const d = (await call('GET', `/api/v1/webhooks/events/${event.body.id}`)).body.deliveries?.[0];
        return d?.status === 'succeeded' ? d : undefined;
      }, 120_000);
      expect(delivery.endpoint_id).toBe(endpoint.body.id);

      expect(receiver.received).toHaveLength(1);
      const [request] = receiver.received;
      expect(() => verifySync(request!.rawBody, request!.headers as Record<string, string>, { secrets: [endpoint.body.secret] })).not.toThrow();
      expect(JSON.parse(request!.rawBody)).toMatchObject({ type: 'image.built', data: { stage: 'final' } });

      // SIGTERM, as `docker compose stop` sends it: both stop cleanly (and flush their traces).
      for (const role of roles) await role.stop();
      expect(apiRole.process.exitCode).toBe(0);
      expect(workerRole.process.exitCode).toBe(0);
      expect(new Set(sink.spans.map((s) => s.service))).toEqual(new Set(['platform-api', 'platform-worker']));
      // The image's files belong to root and the processes run as `node`: they must write nothing there.
      expect(await filesIn(image.dir)).toEqual(filesBefore);
    } finally {
      for (const role of roles) await role.crash();
      await receiver.close();
      await sink.close();
      const client = new MongoClient(process.env.MONGODB_URI as string);
      await client
        .db(dbName)
        .dropDatabase()
        .catch(() => undefined)
        .finally(() => client.close());
      await rm(workDir, { recursive: true, force: true });
    }
  }, 1_800_000);
});

async function filesIn(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).sort();
}
