import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/infra/tools';
import type { Platform } from '../../src/main/platform';

export interface ChildRole {
  process: ChildProcess;
  output: () => string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** SIGKILL the whole process group: the role and every server it started, as a crash would. */
  crash(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Runs `src/main/<role>.ts` (start, api, worker) as its own process group, the way `npm start` does
 * (package.json); with `npm`, through `npm run <role>` itself (its pid is then npm's, which a process manager signals).
 */
export function spawnRole(role: 'start' | 'api' | 'worker', env: Record<string, string>, options: { npm?: boolean } = {}): ChildRole {
  const [command, args] = options.npm ? ['npm', ['run', '--silent', role]] : [process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'src', 'main', `${role}.ts`)]];
  return spawnProcess(role, command, args, { cwd: PROJECT_ROOT, env: { ...process.env, LOG_LEVEL: 'warn', ...env } });
}

/** Runs `command` as its own process group in `cwd` with exactly `env`; `label` names it in errors. */
export function spawnProcess(label: string, command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): ChildRole {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    process: child,
    output: () => out,
    async waitFor(pattern, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = out.match(pattern);
        if (match) return match;
        if (child.exitCode !== null) throw new Error(`${label} exited (${child.exitCode}) before ${pattern}:\n${out}`);
        if (Date.now() > deadline) throw new Error(`${label} did not print ${pattern} within ${timeoutMs} ms:\n${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async crash() {
      // Also when the role has exited: a server it started may be left in its group.
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        /* the whole group is gone */
      }
      await exited;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(child.pid as number, 'SIGTERM');
      const timer = setTimeout(() => {
        try {
          process.kill(-(child.pid as number), 'SIGKILL');
        } catch {
          /* gone */
        }
      }, 45_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The environment for a role process that shares `platform`'s servers, database, task queue and data dir. */
export function roleEnv(platform: Platform): Record<string, string> {
  return {
    MONGODB_URI: platform.mongoUri,
    MONGODB_DB: platform.config.mongo.dbName,
    TEMPORAL_ADDRESS: platform.temporalAddress,
    TEMPORAL_TASK_QUEUE: platform.config.temporal.taskQueue,
    DATA_DIR: platform.config.dataDir,
    DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true',
    INSTANCE_LEASE_TTL_MS: '2000',
    PORT: '0',
  };
}
