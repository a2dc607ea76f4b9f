import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EmbeddedServer, freePort, startFerretDb, startTemporalDevServer } from '../../src/infra/embedded-servers';
import { provision } from '../../src/infra/provision';
import { toolPaths } from '../../src/infra/tools';

declare global {
  // eslint-disable-next-line no-var
  var __EMBEDDED_SERVERS__: EmbeddedServer[] | undefined;
}

/**
 * Starts one real Temporal dev server and one FerretDB for the whole run, on free ports in
 * a fresh temporary DATA_DIR (so tests never touch a developer's own `.data`). Tests read
 * their addresses from the environment; each test file then uses its own database and task
 * queue. With TEMPORAL_ADDRESS / MONGODB_URI already set, those servers are used instead.
 * It is the global setup of the projects that need servers only (jest.config.js): jest runs it,
 * once, when a test of one of them is selected, so a run of the unit tests starts nothing.
 */
export default async function globalSetup(): Promise<void> {
  await provision({
    need: { temporalCli: !process.env.TEMPORAL_ADDRESS, ferretDb: !process.env.MONGODB_URI, temporalTestServer: true },
    log: () => undefined,
  });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'platform-test-'));
  process.env.TEST_DATA_DIR = dataDir;
  const tools = toolPaths();
  const servers: EmbeddedServer[] = [];
  globalThis.__EMBEDDED_SERVERS__ = servers;
  if (!process.env.MONGODB_URI) {
    // The TTL monitor every second (MongoDB's and `npm start`'s: 60 s), so tests see expiry without waiting a minute.
    const ferret = await startFerretDb({ dataDir, port: await freePort(), ttlMonitorSleepSecs: 1, testCommands: true });
    servers.push(ferret);
    process.env.MONGODB_URI = ferret.address;
  }
  if (!process.env.TEMPORAL_ADDRESS) {
    const temporal = await startTemporalDevServer({ dataDir, port: await freePort(), uiPort: 0, headless: true });
    servers.push(temporal);
    process.env.TEMPORAL_ADDRESS = temporal.address;
  }
  process.env.TEMPORAL_TEST_SERVER_PATH ??= tools.temporalTestServer;
  process.env.TEMPORAL_CLI_PATH ??= tools.temporalCli;
  process.env.FERRETDB_PATH ??= tools.ferretDb;
}
