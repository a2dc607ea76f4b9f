import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SEARCH_ATTRIBUTE_DEFINITIONS } from '../temporal/search-attributes';
import { toolPaths } from './tools';

const HOST = '127.0.0.1';

export type EmbeddedServer = Awaited<ReturnType<typeof startChild>>;

/** A server's state goes under `<dataDir>/<its name>`. */
export interface ServerOptions {
  dataDir: string;
  port: number;
}

export async function startTemporalDevServer(options: ServerOptions & { uiPort: number; metricsPort?: number; headless?: boolean }): Promise<EmbeddedServer> {
  const args = [
    'server',
    'start-dev',
    `--db-filename=${path.join(options.dataDir, 'temporal', 'temporal.sqlite')}`,
    `--ip=${HOST}`,
    `--port=${options.port}`,
    '--log-level=warn',
    // WAL, synchronous=NORMAL: an fsync less per write; survives a process crash, not an OS crash (production: PostgreSQL).
    '--sqlite-pragma=journal_mode=wal',
    '--sqlite-pragma=synchronous=normal',
    // Search attributes are all declared at start: no metadata re-read per lookup (6 % of the server's CPU under load).
    '--dynamic-config-value=system.forceSearchAttributesCacheRefreshOnRead=false',
    // Tasks go out by account in turn (one backlog delays no other); on from a queue's first task: server 1.29 cannot migrate task tables.
    '--dynamic-config-value=matching.enableFairness=true',
    // Fairness is per partition: a quiet account's p99 beside a backlog was 4.4 s with 4 partitions, 0.6 s with 1 (ample for one machine).
    '--dynamic-config-value=matching.numTaskqueueReadPartitions=1',
    '--dynamic-config-value=matching.numTaskqueueWritePartitions=1',
  ];
  if (options.metricsPort !== undefined) args.push(`--metrics-port=${options.metricsPort}`);
  if (options.headless) args.push('--headless');
  else args.push(`--ui-port=${options.uiPort}`, `--ui-ip=${HOST}`);
  for (const [name, type] of Object.entries(SEARCH_ATTRIBUTE_DEFINITIONS)) args.push(`--search-attribute=${name}=${type}`);
  return startChild('temporal', options, { label: 'Temporal dev server', command: toolPaths().temporalCli, args, address: `${HOST}:${options.port}`, readyTimeoutMs: 120_000 });
}

/** Where FerretDB keeps its SQLite files (`<database>.sqlite` and its write-ahead log `<database>.sqlite-wal`). */
export const ferretDbDir = (dataDir: string) => path.join(dataDir, 'ferretdb');

/** Tests set `ttlMonitorSleepSecs` (MongoDB's ttlMonitorSleepSecs, 60 by default) and `testCommands` (its enableTestCommands: the TTL monitor's fail point). */
export async function startFerretDb(options: ServerOptions & { ttlMonitorSleepSecs?: number; testCommands?: boolean }): Promise<EmbeddedServer> {
  const dir = ferretDbDir(options.dataDir);
  const env: NodeJS.ProcessEnv = {};
  if (options.ttlMonitorSleepSecs !== undefined) env.FERRETDB_TTL_MONITOR_SLEEP_SECS = String(options.ttlMonitorSleepSecs);
  if (options.testCommands) env.FERRETDB_ENABLE_TEST_COMMANDS = '1';
  return startChild('ferretdb', options, {
    label: 'FerretDB',
    command: toolPaths().ferretDb,
    args: [
      '--handler=sqlite',
      // busy_timeout: burst writers queue for SQLite's one write lock; wait rather than fail.
      // synchronous(normal) with WAL survives a process crash, not an OS crash: one machine's store.
      // journal_size_limit: once a checkpoint has emptied the write-ahead log, cut it back to 16 MiB.
      `--sqlite-url=file:${dir}/?_pragma=busy_timeout(60000)&_pragma=synchronous(normal)&_pragma=journal_size_limit(16777216)`,
      `--state-dir=${dir}`,
      `--listen-addr=${HOST}:${options.port}`,
      `--debug-addr=${HOST}:0`,
      '--telemetry=disable',
      '--log-level=warn',
    ],
    env,
    address: `mongodb://${HOST}:${options.port}/`,
    readyTimeoutMs: 60_000,
  });
}

/** Not the platform's OTEL_*: Temporal would trace itself into our collector, or refuse to start on `console`. */
export function withoutOtelVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('OTEL_')));
}

export interface ChildSpec {
  label: string;
  /** A path (checked to exist) or a command on PATH (java). */
  command: string;
  args: string[];
  /** Added to the environment (which never carries OTEL_*). */
  env?: NodeJS.ProcessEnv;
  address: string;
  readyTimeoutMs: number;
}

/** Started in `<dataDir>/<name>` (its log and pid file there), ready when it listens on `options.port`. */
export async function startChild(name: string, options: ServerOptions, spec: ChildSpec) {
  const binary = spec.command;
  const { port } = options;
  const stateDir = path.join(options.dataDir, name);
  if (path.isAbsolute(binary) && !existsSync(binary)) throw new Error(`${name}: binary not found at ${binary} (run npm run provision)`);
  await mkdir(stateDir, { recursive: true });
  const pidFile = path.join(stateDir, 'server.pid');
  await stopStale(pidFile);
  if (await isPortOpen(port)) {
    throw new Error(`${name}: port ${port} on ${HOST} is already in use; set another port or point the platform at that server`);
  }
  const logStream = createWriteStream(path.join(stateDir, 'server.log'), { flags: 'a' });
  const child = spawn(binary, spec.args, {
    cwd: stateDir,
    env: withoutOtelVariables({ ...process.env, ...spec.env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(logStream);
  child.stderr?.pipe(logStream);
  await writeFile(pidFile, String(child.pid));

  const running = () => child.exitCode === null && child.signalCode === null;
  const exitPromise = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + spec.readyTimeoutMs;
  while (!(await isPortOpen(port))) {
    if (!running()) throw new Error(`${name} exited during start-up; see ${path.join(stateDir, 'server.log')}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not listen on ${HOST}:${port} within ${spec.readyTimeoutMs} ms`);
    }
    await sleep(100);
  }

  return {
    name,
    label: spec.label,
    address: spec.address,
    process: child,
    /** SIGTERM, then SIGKILL if still running after `killAfterMs` (its SQLite write-ahead log survives a kill). */
    async stop(killAfterMs = 10_000) {
      let how: 'stopped' | 'killed' = 'stopped';
      if (running()) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => {
          how = 'killed';
          child.kill('SIGKILL');
        }, killAfterMs);
        await exitPromise;
        clearTimeout(timer);
      }
      await rm(pidFile, { force: true });
      logStream.end();
      return how;
    },
    /** SIGKILL now, if still running (a stop that has run out of time). */
    kill() {
      if (running()) child.kill('SIGKILL');
    },
  };
}

/** A previous run killed with SIGKILL leaves its children running on our state; stop them. */
async function stopStale(pidFile: string): Promise<void> {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
    process.kill(pid, 'SIGTERM');
    for (let i = 0; i < 100 && isAlive(pid); i++) await sleep(100);
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  await rm(pidFile, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function isPortOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: HOST, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

// Below Linux's ephemeral range (32768–60999), where an outbound socket or `listen(0)` could take a picked port first.
const PICKED_PORTS = { from: 20_000, to: 32_000 };

/** A free TCP port on 127.0.0.1 (for tests and benchmarks, which run beside a developer's own platform). */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 50; tries++) {
    const port = PICKED_PORTS.from + Math.floor(Math.random() * (PICKED_PORTS.to - PICKED_PORTS.from));
    if ((await listenOn(port)) !== undefined) return port;
  }
  const any = await listenOn(0);
  if (any === undefined) throw new Error('no free TCP port on 127.0.0.1');
  return any;
}

/** The port a listener got on 127.0.0.1 (then closed), or undefined when it could not listen there. */
function listenOn(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, HOST, () => {
      const got = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(got));
    });
  });
}
