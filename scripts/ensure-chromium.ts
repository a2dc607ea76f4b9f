/**
 * The browser tests drive Debian's own Chromium (no Playwright browser download: this machine
 * has no internet beyond the Debian mirror). Installs it with apt-get when it is missing.
 * Runs as a script (`tsx scripts/ensure-chromium.ts`) or from a test's beforeAll.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Flags that keep Chromium quiet and self-contained in CI (no sandbox: containers run as root). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

function run(command: string, args: string[], log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    let tail = '';
    const keep = (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) return resolve();
      log(tail);
      reject(new Error(`${command} ${args.join(' ')} exited with ${code}`));
    });
  });
}

/** Idempotent: does nothing when Chromium is already there. */
export async function ensureChromium(log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Promise<string> {
  if (existsSync(CHROMIUM_PATH)) return CHROMIUM_PATH;
  const sudo = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const apt = (args: string[]) => (sudo.length ? run(sudo[0], [...sudo.slice(1), 'apt-get', ...args], log) : run('apt-get', args, log));
  log(`[chromium] ${CHROMIUM_PATH} is missing; installing Debian's chromium with apt-get (takes a minute or two)...`);
  await apt(['update']);
  await apt(['install', '-y', '--no-install-recommends', 'chromium']);
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`apt-get install chromium finished but ${CHROMIUM_PATH} is still missing`);
  log('[chromium] installed.');
  return CHROMIUM_PATH;
}

if (require.main === module) {
  ensureChromium().then(
    (p) => process.stdout.write(`${p}\n`),
    (err) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
