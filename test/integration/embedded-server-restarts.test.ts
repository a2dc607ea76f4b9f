import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ChildWatch, freePort, isPortOpen, startChild } from '../../src/infra/embedded-servers';
import { isProcessRunning } from '../../src/infra/process-liveness';
import { eventually } from '../support/platform';

/** A server as small as can be: it listens on PORT until killed, once no file `hold` is in its directory. */
const LISTENER = `
  const listen = () => require('net').createServer((s) => s.end()).listen(Number(process.env.PORT), '127.0.0.1');
  const start = () => (require('fs').existsSync('hold') ? setTimeout(start, 50) : listen());
  start();`;

async function startListener(watch?: ChildWatch) {
  const dataDir = await mkdtemp(path.join(process.env.TEST_DATA_DIR ?? os.tmpdir(), 'child-'));
  const port = await freePort();
  const server = await startChild('listener', { dataDir, port, watch }, {
    label: 'Listener',
    command: process.execPath,
    args: ['-e', LISTENER],
    env: { PORT: String(port) },
    address: `127.0.0.1:${port}`,
    readyTimeoutMs: 10_000,
  });
  const stateDir = path.join(dataDir, 'listener');
  const pidFile = path.join(stateDir, 'server.pid');
  return {
    server,
    port,
    pidInFile: async () => Number(await readFile(pidFile, 'utf8').catch(() => '0')),
    /** Every later start waits, not listening, while this file is in its directory (held at that point for the test). */
    holdNextStart: () => writeFile(path.join(stateDir, 'hold'), ''),
  };
}

function recordingWatch() {
  const told = { restarted: [] as string[], lost: [] as string[] };
  const watch: ChildWatch = { restarted: (label, exit) => told.restarted.push(`${label} ${exit}`), lost: (why) => told.lost.push(why) };
  return { watch, told };
}

describe('an embedded server that ends on its own', () => {
  it('is started again on its port, and the watch is told how it had ended', async () => {
    const { watch, told } = recordingWatch();
    const { server, port, pidInFile } = await startListener(watch);
    try {
      const first = server.pid() as number;
      process.kill(first, 'SIGKILL');
      await eventually(async () => told.restarted.length === 1 || undefined, 10_000);
      expect(told.restarted).toEqual(['Listener killed by SIGKILL']);
      expect(server.pid()).not.toBe(first);
      expect(await pidInFile()).toBe(server.pid());
      expect(await isPortOpen(port)).toBe(true);
      expect(told.lost).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it('is given up on when it ends a fourth time within a minute, and stays down', async () => {
    const { watch, told } = recordingWatch();
    const { server, port } = await startListener(watch);
    try {
      for (let restarts = 1; restarts <= 3; restarts++) {
        process.kill(server.pid() as number, 'SIGKILL');
        await eventually(async () => told.restarted.length === restarts || undefined, 10_000);
      }
      process.kill(server.pid() as number, 'SIGKILL');
      await eventually(async () => told.lost.length === 1 || undefined, 10_000);
      expect(told.lost[0]).toBe('Listener killed by SIGKILL, 4 times within 60 s');
      expect(told.restarted).toHaveLength(3);
      expect(await isPortOpen(port)).toBe(false);
    } finally {
      await server.stop();
    }
  });

  it('is not started again once its stop has begun', async () => {
    const { watch, told } = recordingWatch();
    const { server, port } = await startListener(watch);
    expect(await server.stop()).toBe('stopped');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(told).toEqual({ restarted: [], lost: [] });
    expect(await isPortOpen(port)).toBe(false);
  });

  it('is not started once its stop begins while it is starting again, and its new run is ended', async () => {
    const { watch, told } = recordingWatch();
    const { server, port, pidInFile, holdNextStart } = await startListener(watch);
    const first = server.pid() as number;
    await holdNextStart();
    try {
      process.kill(first, 'SIGKILL');
      const second = await eventually(async () => {
        const pid = await pidInFile();
        return pid !== first && pid > 0 ? pid : undefined;
      }, 10_000);
      expect(isProcessRunning(second)).toBe(true);
      expect(await isPortOpen(port)).toBe(false);
      expect(await server.stop()).toBe('stopped');
      expect(isProcessRunning(second)).toBe(false);
      expect(told).toEqual({ restarted: [], lost: [] });
      expect(await isPortOpen(port)).toBe(false);
    } finally {
      server.kill(); // a held run left by a failed assertion (nothing once stopped)
    }
  });

  it('is left down without a watch (a CLI command or a test broker)', async () => {
    const { server, port } = await startListener();
    try {
      process.kill(server.pid() as number, 'SIGKILL');
      await eventually(async () => !(await isPortOpen(port)) || undefined, 5_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await isPortOpen(port)).toBe(false);
    } finally {
      await server.stop();
    }
  });
});
