import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The AES-256-GCM key that seals endpoint signing secrets. Production sets
 * SECRETS_ENCRYPTION_KEY; the embedded default is generated once under DATA_DIR (mode 0600)
 * so that a restart on the same DATA_DIR can still open every secret.
 */
export async function loadOrCreateSecretsKey(configured: Buffer | undefined, dataDir: string): Promise<Buffer> {
  if (configured) return configured;
  const file = path.join(dataDir, 'secrets.key');
  if (existsSync(file)) {
    const key = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a base64 32-byte key`);
    return key;
  }
  await mkdir(dataDir, { recursive: true });
  const key = randomBytes(32);
  await writeFile(file, key.toString('base64'), { mode: 0o600, flag: 'wx' }).catch(async (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
  return Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
}
