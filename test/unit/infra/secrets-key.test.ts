import { spawn } from 'node:child_process';
import { mkdtemp, open, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadOrCreateSecretsKey } from '../../../src/infra/secrets-key';

// The module object itself (a namespace import would be a copy), so that a spy on it is what the code calls.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fsPromises: typeof import('node:fs/promises') = require('node:fs/promises');

const tempDir = () => mkdtemp(path.join(os.tmpdir(), 'secrets-key-'));

describe('loadOrCreateSecretsKey', () => {
  it('creates a 32-byte key once (mode 0600) and reads the same key back', async () => {
    const dir = await tempDir();
    const key = await loadOrCreateSecretsKey(undefined, dir);
    expect(key).toHaveLength(32);
    expect((await stat(path.join(dir, 'secrets.key'))).mode & 0o777).toBe(0o600);
    await expect(loadOrCreateSecretsKey(undefined, dir)).resolves.toEqual(key);
    expect(await readdir(dir)).toEqual(['secrets.key']); // no temporary file left behind
  });

  it('concurrent first calls all get the same whole key (none reads a half-written or empty file)', async () => {
    for (let round = 0; round < 20; round++) {
      const dir = await tempDir();
      const keys = await Promise.all(Array.from({ length: 16 }, () => loadOrCreateSecretsKey(undefined, dir)));
      for (const key of keys) {
        expect(key).toHaveLength(32);
        expect(key.equals(keys[0] as Buffer)).toBe(true);
      }
      expect(Buffer.from((await readFile(path.join(dir, 'secrets.key'), 'utf8')).trim(), 'base64').equals(keys[0] as Buffer)).toBe(true);
    }
  });

  it('a key file being written by another caller is never read half-written', async () => {
    // A slow disk: the file exists (empty) for a while before its content lands, as between
    // open(O_EXCL) and write() of a process starting at the same moment.
    const spy = jest.spyOn(fsPromises, 'writeFile').mockImplementation((async (file: string, data: string, options: { flag?: string; mode?: number }) => {
      const handle = await open(file, options?.flag ?? 'w', options?.mode);
      await new Promise((r) => setTimeout(r, 100));
      await handle.writeFile(data);
      await handle.close();
    }) as never);
    try {
      const dir = await tempDir();
      const keys = await Promise.all([loadOrCreateSecretsKey(undefined, dir), new Promise((r) => setTimeout(r, 20)).then(() => loadOrCreateSecretsKey(undefined, dir))]);
      expect(keys[0]).toHaveLength(32);
      expect(keys[1]).toEqual(keys[0]);
    } finally {
      spy.mockRestore();
    }
  });

  it('two processes starting at once end with the same key', async () => {
    const dir = await tempDir();
    const script = `require('tsx/cjs'); require(${JSON.stringify(path.resolve(__dirname, '../../../src/infra/secrets-key.ts'))})
      .loadOrCreateSecretsKey(undefined, ${JSON.stringify(dir)}).then((k) => process.stdout.write(k.toString('hex')))`;
    const run = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}`))));
      });
    const [a, b] = await Promise.all([run(), run()]);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(b).toBe(a);
  });

  it('a file that does not hold a 32-byte key is an error, not a new key', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'secrets.key'), 'c2hvcnQ=');
    await expect(loadOrCreateSecretsKey(undefined, dir)).rejects.toThrow('does not hold a base64 32-byte key');
  });

  it('a configured key is used as is', async () => {
    const configured = Buffer.alloc(32, 7);
    await expect(loadOrCreateSecretsKey(configured, await tempDir())).resolves.toBe(configured);
  });
});
