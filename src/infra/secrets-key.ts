import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { readIfPresent, writeOnce } from './write-once';

/**
 * The AES-256-GCM key sealing endpoint signing secrets: SECRETS_ENCRYPTION_KEY, or one made once under
 * DATA_DIR (writeOnce: concurrent starts agree on one key) so a restart can still open every secret.
 */
export async function loadOrCreateSecretsKey(configured: Buffer | undefined, dataDir: string): Promise<Buffer> {
  if (configured) return configured;
  const file = path.join(dataDir, 'secrets.key');
  const existing = await readKey(file);
  if (existing) return existing;
  await writeOnce(file, randomBytes(32).toString('base64'));
  const key = await readKey(file);
  if (!key) throw new Error(`${file} could not be created`);
  return key;
}

async function readKey(file: string): Promise<Buffer | undefined> {
  const text = await readIfPresent(file);
  if (text === undefined) return undefined;
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a base64 32-byte key`);
  return key;
}
