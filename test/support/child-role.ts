import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/infra/tools';

export interface ChildRole {
  process: ChildProcess;
  output: () => string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** SIGKILL the whole process group: the role and every server it started, as a crash would. */
  crash(): Promise<void>;
  stop(): Promise<void>;
}

/** Runs `src/main/<role>.ts` (start, api, worker) as its own process group, as `npm start` would. */
export function spawnRole(role: 'start' | 'api' | 'worker', env: Record<string, string>): ChildRole {
  const child = spawn(path.join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx'), [path.join(PROJECT_ROOT, 'src', 'main', `${role}.ts`)], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
        if (child.exitCode !== null) throw new Error(`${role} exited (${child.exitCode}) before ${pattern}:\n${out}`);
        if (Date.now() > deadline) throw new Error(`${role} did not print ${pattern} within ${timeoutMs} ms:\n${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async crash() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(-(child.pid as number), 'SIGKILL');
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
