import { spawn } from 'node:child_process';
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
    // bash starts `sleep 0`, then becomes `sleep 100`, which never reaps it: the child stays a
    // zombie for as long as the test needs, as a SIGKILLed listener does until init reaps it.
    const parent = spawn('bash', ['-c', 'sleep 0 & echo $!; exec sleep 100'], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const zombie = Number(await new Promise<string>((resolve) => parent.stdout!.once('data', (d) => resolve(String(d)))));
      await waitUntilZombie(zombie);
      expect(isProcessRunning(zombie)).toBe(false);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});

async function waitUntilZombie(pid: number): Promise<void> {
  while (linuxProcessState(pid) !== 'Z') await new Promise((r) => setTimeout(r, 20));
}
