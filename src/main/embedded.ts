import { Config, mongoUriOf, temporalAddressOf } from '../config/config';
import { EmbeddedServer, startFerretDb, startTemporalDevServer } from '../infra/embedded-servers';
import { provision } from '../infra/provision';
import { toolPaths } from '../infra/tools';

/** Each embedded server joins `started` once it runs, so the caller stops it if a later one fails. */
export async function startServers(config: Config, started: EmbeddedServer[]) {
  await provision({ need: { temporalCli: !config.temporal.address, ferretDb: !config.mongo.uri, temporalTestServer: false } });
  const tools = toolPaths();
  if (!config.mongo.uri) {
    started.push(await startFerretDb({ binary: tools.ferretDb, dataDir: config.dataDir, port: config.mongo.embeddedPort }));
  }
  if (!config.temporal.address) {
    started.push(
      await startTemporalDevServer({
        binary: tools.temporalCli,
        dataDir: config.dataDir,
        port: config.temporal.embeddedPort,
        uiPort: config.temporal.embeddedUiPort,
        metricsPort: config.temporal.embeddedMetricsPort,
      }),
    );
  }
  return { mongoUri: mongoUriOf(config), temporalAddress: temporalAddressOf(config) };
}
