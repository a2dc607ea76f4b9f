import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../../src/infra/embedded-servers';
import { PROJECT_ROOT } from '../../src/infra/tools';

/** The env of an `npm start` that runs its own embedded servers under `dataDir`. */
export type OwnPlatformEnv = {
  DATA_DIR: string;
  PORT: string;
  EMBEDDED_TEMPORAL_PORT: string;
  EMBEDDED_TEMPORAL_UI_PORT: string;
  EMBEDDED_MONGO_PORT: string;
  MONGODB_URI: string;
  TEMPORAL_ADDRESS: string;
  DELIVERY_ALLOW_PRIVATE_NETWORKS: string;
};

/**
 * An `npm start` on its own: embedded Temporal (with its Web UI) and FerretDB under `dataDir`, every
 * port free. The ports are fixed here so that a second start on the same DATA_DIR comes back at the same addresses.
 */
export async function ownPlatformEnv(dataDir: string): Promise<OwnPlatformEnv> {
  return {
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    EMBEDDED_TEMPORAL_PORT: String(await freePort()),
    EMBEDDED_TEMPORAL_UI_PORT: String(await freePort()),
    EMBEDDED_MONGO_PORT: String(await freePort()),
    // Use the embedded servers, not the test run's shared ones.
    MONGODB_URI: '',
    TEMPORAL_ADDRESS: '',
    // Receivers listen on 127.0.0.1.
    DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true',
  };
}

/** Whether any process of the group `npm start` leads (npm, node, Temporal, FerretDB) is left; a zombie not yet reaped counts. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs `src/main/cli.ts` against the platform of `env`, as an operator does; expects (jest) it to succeed and returns its JSON. */
export function platformCli(env: Record<string, string>): (...args: string[]) => any {
  return (...args) => {
    const res = spawnSync(path.join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx'), [path.join(PROJECT_ROOT, 'src', 'main', 'cli.ts'), ...args], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    expect(res.status).toBe(0);
    return JSON.parse(res.stdout);
  };
}

export type ApiCall = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

/** Calls the API at `apiUrl` with `key`: JSON in, status and JSON out. */
export function apiCaller(apiUrl: string, key: string): ApiCall {
  return (method, p, body) =>
    fetch(`${apiUrl}${p}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
}

/** An enterprise account made with the CLI, a `weh` key labelled `label` for it, and calls with that key. */
export function signUp(env: Record<string, string>, apiUrl: string, email: string, label: string): { key: string; call: ApiCall } {
  const cli = platformCli(env);
  const account = cli('account', 'create', '--email', email, '--tier', 'enterprise');
  const { key } = cli('key', 'create', '--account', account.id, '--product', 'weh', '--label', label);
  return { key, call: apiCaller(apiUrl, key) };
}
