import { ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync, WriteStream } from 'node:fs';
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
  /** When set, a child that exits on its own is started again (startChild). */
  watch?: ChildWatch;
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

/** Told about a child that exits while nobody asked it to stop. */
export interface ChildWatch {
  /** It was started again in its place, on the same port and state; `exit` says how it had ended. */
  restarted(label: string, exit: string): void;
  /** It stays down: it exited more than RESTARTS_PER_WINDOW times within RESTART_WINDOW_MS, or did not start again. */
  lost(reason: string): void;
}

/** A child that keeps dying (a full disk, a corrupt file) is given up on rather than restarted in a loop. */
const RESTARTS_PER_WINDOW = 3;
const RESTART_WINDOW_MS = 60_000;

/**
 * Started in `<dataDir>/<name>` (its log and pid file there), ready when it listens on `options.port`. With `options.watch`,
 * a child that exits on its own is started again at once: its clients (the MongoDB driver, Temporal's connections)
 * reconnect, and nothing acknowledged is lost, as both keep their state in SQLite.
 */
export async function startChild(name: string, options: ServerOptions, spec: ChildSpec) {
  const stateDir = path.join(options.dataDir, name);
  if (path.isAbsolute(spec.command) && !existsSync(spec.command)) throw new Error(`${name}: binary not found at ${spec.command} (run npm run provision)`);
  await mkdir(stateDir, { recursive: true });
  const pidFile = path.join(stateDir, 'server.pid');
  const logStream = createWriteStream(path.join(stateDir, 'server.log'), { flags: 'a' });
  let stopping = false;
  const launchOne = () => launch(name, options.port, spec, { stateDir, pidFile, logStream }, () => stopping);
  let current = await launchOne().catch((err: unknown) => {
    logStream.end();
    throw err;
  });
  let restarting: Promise<void> | undefined;
  const unaskedExits: number[] = [];

  const watchExit = ({ child, exited }: Launched) => {
    void exited.then(() => {
      const { watch } = options;
      if (stopping || !watch) return;
      const exit = child.signalCode ? `killed by ${child.signalCode}` : `exited with code ${child.exitCode}`;
      const now = Date.now();
      unaskedExits.push(now);
      while (unaskedExits[0] < now - RESTART_WINDOW_MS) unaskedExits.shift();
      if (unaskedExits.length > RESTARTS_PER_WINDOW) {
        watch.lost(`${spec.label} ${exit}, ${unaskedExits.length} times within ${RESTART_WINDOW_MS / 1000} s`);
        return;
      }
      restarting = launchOne().then(
        (next) => {
          current = next;
          watchExit(next);
          watch.restarted(spec.label, exit);
        },
        (err: unknown) => {
          if (!stopping) watch.lost(`${spec.label} ${exit} and did not start again: ${err instanceof Error ? err.message : String(err)}`);
        },
      );
    });
  };
  watchExit(current);

  return {
    name,
    label: spec.label,
    address: spec.address,
    /** The running child's (for CPU counts; it changes when the child is started again). */
    pid: () => current.child.pid,
    /** SIGTERM, then SIGKILL if still running after `killAfterMs` (its SQLite write-ahead log survives a kill). */
    async stop(killAfterMs = 10_000) {
      stopping = true;
      await restarting; // a start under way gives up within 100 ms of `stopping`
      let how: 'stopped' | 'killed' = 'stopped';
      const { child, exited } = current;
      if (isRunning(child)) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => {
          how = 'killed';
          child.kill('SIGKILL');
        }, killAfterMs);
        await exited;
        clearTimeout(timer);
      }
      await rm(pidFile, { force: true });
      logStream.end();
      return how;
    },
    /** SIGKILL now, if still running (a stop that has run out of time). */
    kill() {
      stopping = true;
      if (isRunning(current.child)) current.child.kill('SIGKILL');
    },
  };
}

type Launched = Awaited<ReturnType<typeof launch>>;

const isRunning = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/** One run of the child, its output appended to the log; resolves once it listens on `port`. */
async function launch(
  name: string,
  port: number,
  spec: ChildSpec,
  files: { stateDir: string; pidFile: string; logStream: WriteStream },
  cancelled: () => boolean,
) {
  await stopStale(files.pidFile);
  if (await isPortOpen(port)) {
    throw new Error(`${name}: port ${port} on ${HOST} is already in use; set another port or point the platform at that server`);
  }
  const child = spawn(spec.command, spec.args, {
    cwd: files.stateDir,
    env: withoutOtelVariables({ ...process.env, ...spec.env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(files.logStream, { end: false });
  child.stderr?.pipe(files.logStream, { end: false });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await writeFile(files.pidFile, String(child.pid));

  const deadline = Date.now() + spec.readyTimeoutMs;
  while (!(await isPortOpen(port))) {
    if (!isRunning(child)) throw new Error(`${name} exited during start-up; see ${path.join(files.stateDir, 'server.log')}`);
    if (cancelled() || Date.now() > deadline) {
      child.kill('SIGKILL');
      await exited;
      throw new Error(cancelled() ? `${name}: stopped during start-up` : `${name} did not listen on ${HOST}:${port} within ${spec.readyTimeoutMs} ms`);
    }
    await sleep(100);
  }
  return { child, exited };
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
