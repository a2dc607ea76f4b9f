import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

export async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * The text of `file`, made by `make` if absent: written in full under a name of its own, then
 * hard-linked to `file` (which fails if it exists): the name only ever appears whole, and of
 * processes writing at once exactly one wins.
 */
export async function readOrWriteOnce(file: string, make: () => Promise<string>): Promise<string> {
  const existing = await readIfPresent(file);
  if (existing !== undefined) return existing;
  const content = await make();
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temp, content, { mode: 0o600, flag: 'wx', flush: true });
  try {
    await link(temp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  return readFile(file, 'utf8');
}
