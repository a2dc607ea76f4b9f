import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isProcessRunning, linuxProcessState } from '../../../src/infra/process-liveness';

/** How `cli listen` tells a dead listener's endpoint from a live one's (src/main/cli-listen.ts). */
describe('isProcessRunning', () => {
  it('is true for a running process', () => {
    expect(isProcessRunning(process.pid)).toBe(true);
  });

  it('is false for a pid no process has', () => {
    expect(isProcessRunning(2 ** 22 + 1)).toBe(false);
  });

  it('is false for a killed process its parent has not reaped yet (a zombie)', async () => {
    // bash starts a child, then becomes `sleep 100`, which never reaps it. The child is killed only
    // once bash is gone, so it stays a zombie for as long as the test needs, as a SIGKILLed listener
    // does until init reaps it (a child that ended while bash ran would have been reaped by bash).
    const parent = spawn('bash', ['-c', 'sleep 100 & echo $!; exec sleep 100'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let child = 0;
    try {
      child = Number(await new Promise<string>((resolve) => parent.stdout!.once('data', (d) => resolve(String(d)))));
      await until(() => command(parent.pid!) === 'sleep', 'bash to become `sleep 100`');
      process.kill(child, 'SIGKILL');
      await until(() => linuxProcessState(child) === 'Z', `process ${child} to be a zombie`);
      expect(isProcessRunning(child)).toBe(false);
    } finally {
      parent.kill('SIGKILL');
      if (child > 0) process.kill(child, 'SIGKILL');
    }
  });
});

function command(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Polls a condition; a generous ceiling turns a hang into a failure that says what never happened. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; !condition(); ) {
    if (Date.now() > deadline) throw new Error(`waited 30 s for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
