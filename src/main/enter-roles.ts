import { ConfigError, loadConfig } from '../config/config';
import { loggedPath } from '../transport/http/logged-path';
import type { Roles } from './platform';
import { IN_FLIGHT_GRACE_MS, STOP_BACKSTOP_MS, STOP_PROMISE_MS } from './stop-budget';

/** Shared by `npm start`, `npm run api` and `npm run worker`: start, print, and stop on SIGINT/SIGTERM within STOP_PROMISE_MS. */
export function enterRoles(roles: Roles): void {
  runRoles(roles).catch((err) => {
    const configError = err instanceof ConfigError;
    process.stderr.write(`${configError ? '' : 'start-up failed: '}${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(configError ? 78 : 1); // 78: EX_CONFIG
  });
}

async function runRoles(roles: Roles): Promise<void> {
  const config = loadConfig();
  // The platform loads only after tracing has started: the Koa, HTTP and MongoDB instrumentations patch those modules as they load.
  const tracing = config.tracing ? (await import('../infra/tracing/start-tracing')).startTracing(config.tracing, loggedPath) : undefined;
  const { startPlatform } = await import('./platform');
  // A process whose worker ended, or whose embedded server stays down, takes events it would never deliver: it stops, to be restarted.
  let onLost!: (why: string) => void;
  const lost = new Promise<string>((resolve) => (onLost = resolve));
  const platform = await startPlatform(config, { roles, tracing, onLost });
  const lines = [
    platform.apiUrl && `API            ${platform.apiUrl}   (docs: ${platform.apiUrl}/docs, dashboard: ${platform.apiUrl}/dashboard)`,
    `Temporal gRPC  ${platform.temporalAddress}`,
    !config.temporal.address && `Temporal UI    http://127.0.0.1:${config.temporal.embeddedUiPort}`,
    `MongoDB        ${platform.mongoUri.replace(/\/\/[^@/]*@/, '//***@')}${config.mongo.uri ? '' : '   (embedded FerretDB)'}`,
    roles.worker && `Worker         task queue ${config.temporal.taskQueue}`,
    `Data           ${config.dataDir}`,
  ].filter(Boolean);
  process.stdout.write(`Platform ready.\n${lines.map((l) => `  ${l}`).join('\n')}\n`);

  let stoppingSince: number | undefined;
  // The promise holds whatever hangs: kill the servers and exit; crash recovery takes what was in flight.
  const giveUp = (why: string) => {
    for (const server of platform.embedded) server.kill();
    process.stderr.write(`${why}: killed the embedded servers and exiting.\n`);
    process.exit(1);
  };
  const stop = (signal: string, exitCode = 0) => {
    if (stoppingSince !== undefined) {
      if (Date.now() - stoppingSince >= REPEATED_SIGNAL_MS) giveUp(`${signal} again`);
      return;
    }
    const began = (stoppingSince = Date.now());
    process.stdout.write(
      `${signal}: stopping. Nothing new is taken; work in flight has ${IN_FLIGHT_GRACE_MS / 1000} s to finish, and everything stops within ${STOP_PROMISE_MS / 1000} s.\n`,
    );
    setTimeout(() => giveUp(`Still stopping ${STOP_BACKSTOP_MS / 1000} s after ${signal}`), STOP_BACKSTOP_MS);
    platform
      .stop({ deadline: began + IN_FLIGHT_GRACE_MS, report: (line) => process.stdout.write(`${line}\n`) })
      .then(() => {
        const stopped = [platform.apiUrl && 'API', roles.worker && 'worker', ...platform.embedded.map((server) => server.label)].filter(Boolean);
        process.stdout.write(`Stopped: ${stopped.join(', ')} in ${((Date.now() - began) / 1000).toFixed(1)} s. Everything this process started has stopped.\n`);
        process.exit(exitCode);
      })
      .catch((err) => {
        process.stderr.write(`error while stopping: ${String(err)}\n`);
        giveUp('The stop failed');
      });
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop(signal));
  void lost.then((why) => stop(why, 1));
}

/** A second signal this long after the first is a person's second Ctrl-C, not the same one forwarded by npm. */
const REPEATED_SIGNAL_MS = 1_000;
