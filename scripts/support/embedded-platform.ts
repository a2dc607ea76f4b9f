import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config/config';
import { freePort } from '../../src/infra/embedded-servers';
import type { Logger } from '../../src/infra/logger';
import { Platform, Roles, startPlatform } from '../../src/main/platform';

export interface EmbeddedPlatform {
  platform: Platform;
  apiUrl: string;
  dataDir: string;
  /** Stops the platform (and its embedded Temporal and FerretDB), removes the temporary DATA_DIR. */
  stop(): Promise<void>;
}

/**
 * The embedded stack exactly as `npm start` runs it (embedded Temporal dev server and FerretDB
 * started by startPlatform), but on free ports in a fresh temporary DATA_DIR, so a tool
 * (fuzzer, benchmark) never touches a developer's own `.data` or a running platform.
 */
export async function startEmbeddedPlatform(
  options: { roles?: Roles; logLevel?: string; logger?: Logger; env?: Record<string, string> } = {},
): Promise<EmbeddedPlatform> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'platform-tool-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    EMBEDDED_MONGO_PORT: String(await freePort()),
    EMBEDDED_TEMPORAL_PORT: String(await freePort()),
    EMBEDDED_TEMPORAL_UI_PORT: String(await freePort()),
    LOG_LEVEL: options.logLevel ?? 'warn',
    ...options.env,
  };
  const config = loadConfig(env);
  const platform = await startPlatform(config, { roles: options.roles ?? { api: true, worker: true }, logger: options.logger });
  return {
    platform,
    apiUrl: platform.apiUrl!,
    dataDir,
    async stop() {
      await platform.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
