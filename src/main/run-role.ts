import { ConfigError, loadConfig } from '../config/config';
import { Roles, startPlatform } from './platform';

/**
 * Shared entry of `npm start` (both roles), `npm run api` and `npm run worker`: validate the
 * configuration, start, print where everything listens, stop cleanly on SIGINT/SIGTERM.
 */
export async function runRoles(roles: Roles): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
  const platform = await startPlatform(config, { roles });
  const lines = [
    platform.apiUrl && `API            ${platform.apiUrl}   (docs: ${platform.apiUrl}/docs, dashboard: ${platform.apiUrl}/dashboard)`,
    `Temporal gRPC  ${platform.temporalAddress}`,
    !config.temporal.address && `Temporal UI    http://127.0.0.1:${config.temporal.embeddedUiPort}`,
    `MongoDB        ${platform.mongoUri.replace(/\/\/[^@/]*@/, '//***@')}${config.mongo.uri ? '' : '   (embedded FerretDB)'}`,
    roles.worker && `Worker         task queue ${config.temporal.taskQueue}`,
    `Data           ${config.dataDir}`,
  ].filter(Boolean);
  process.stdout.write(`Platform ready.\n${lines.map((l) => `  ${l}`).join('\n')}\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal}: stopping (draining the worker)...\n`);
    platform
      .stop()
      .then(() => {
        const stopped = [platform.apiUrl && 'API', roles.worker && 'worker', ...platform.embedded.map((e) => (e.name === 'temporal' ? 'Temporal dev server' : 'FerretDB'))].filter(Boolean);
        process.stdout.write(`Stopped: ${stopped.join(', ')}. Everything this process started has stopped.\n`);
        process.exit(0);
      })
      .catch((err) => {
        process.stderr.write(`error while stopping: ${String(err)}\n`);
        process.exit(1);
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
