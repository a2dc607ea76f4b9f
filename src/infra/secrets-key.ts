import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { readOrWriteOnce } from './write-once';

/** SECRETS_ENCRYPTION_KEY, else a key made once under DATA_DIR: a restart still opens every sealed secret. */
export async function loadOrCreateSecretsKey(configured: Buffer | undefined, dataDir: string): Promise<Buffer> {
  if (configured) return configured;
  const file = path.join(dataDir, 'secrets.key');
  const text = await readOrWriteOnce(file, async () => randomBytes(32).toString('base64'));
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a base64 32-byte key`);
  return key;
}
