import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { PROJECT_ROOT } from '../../src/infra/tools';

/** A command a person would type, run by bash in the project directory as its own process group (a terminal's foreground job). */
export interface ShellProcess {
  process: ChildProcess;
  output(): string;
  /** Waits until the output (stdout and stderr) matches. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code once it has exited, or the signal that ended it. */
  exited: Promise<number | NodeJS.Signals | null>;
  /** Sends `signal` to the whole group, as Ctrl-C in a terminal does, and resolves as `exited`. */
  interrupt(signal?: NodeJS.Signals): Promise<number | NodeJS.Signals | null>;
  /** SIGKILL of the whole group (a crash, or clean-up). */
  kill(): Promise<void>;
}

export function spawnShell(command: string, env: Record<string, string | undefined>): ShellProcess {
  const child = spawn('bash', ['-c', command], { cwd: PROJECT_ROOT, env: env as NodeJS.ProcessEnv, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    process: child,
    exited,
    output: () => out,
    async waitFor(pattern, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = out.match(pattern);
        if (match) return match;
        if (!running()) throw new Error(`\`${command}\` exited (${child.exitCode ?? child.signalCode}) before printing ${pattern}:\n${out}`);
        if (Date.now() > deadline) throw new Error(`\`${command}\` did not print ${pattern} within ${timeoutMs} ms:\n${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async interrupt(signal = 'SIGINT') {
      if (running()) process.kill(-(child.pid as number), signal);
      return exited;
    },
    async kill() {
      if (running()) process.kill(-(child.pid as number), 'SIGKILL');
      await exited;
    },
  };
}

/** Runs a command to its end; its stdout, or an error with everything it printed. */
export function runShell(command: string, env: Record<string, string | undefined>): string {
  const result = spawnSync('bash', ['-c', command], { cwd: PROJECT_ROOT, env: env as NodeJS.ProcessEnv, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`\`${command}\` exited ${result.status}:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}
