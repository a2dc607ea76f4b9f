import { ConfigError, loadConfig } from '../config/config';
import { loggedPath } from '../transport/http/logged-path';
import type { Roles } from './platform';

/** The platform loads only after tracing has started: the Koa, HTTP and MongoDB instrumentations patch those modules as they load. */
export function enterRoles(roles: Roles): void {
  enter(roles).catch((err) => {
    const configError = err instanceof ConfigError;
    process.stderr.write(`${configError ? '' : 'start-up failed: '}${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(configError ? 78 : 1); // 78: EX_CONFIG
  });
}

async function enter(roles: Roles): Promise<void> {
  const config = loadConfig();
  const tracing = config.tracing ? (await import('../infra/tracing/start-tracing')).startTracing(config.tracing, loggedPath) : undefined;
  const { runRoles } = await import('./run-role');
  await runRoles(roles, config, tracing);
}
