import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * package.json's `allowScripts` says which dependencies' install scripts run (npm 11): every package with one is
 * either allowed or denied there, so `npm install` warns about none, and a new one must be reviewed before it runs.
 */
const ROOT = path.resolve(__dirname, '..', '..', '..');
const allowScripts = (): Record<string, boolean> => JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).allowScripts ?? {};

describe("dependencies' install scripts", () => {
  it('are each allowed or denied in package.json (npm install-scripts ls lists none pending)', async () => {
    const { stdout } = await promisify(execFile)('npm', ['install-scripts', 'ls', '--json'], { cwd: ROOT });
    const pending = (JSON.parse(stdout).allowScripts as Array<{ name: string; changes: Array<{ key: string; change: string }> }>).flatMap((p) =>
      p.changes.filter((c) => c.change === 'pending').map((c) => c.key),
    );
    expect(pending).toEqual([]);
  }, 60_000);

  it("allow argon2's, which builds the binding where its prebuilt one does not load, and no other", () => {
    const allowed = Object.entries(allowScripts()).filter(([, allow]) => allow).map(([name]) => name.replace(/(?<=.)@.*$/, ''));
    expect(allowed).toEqual(['argon2']);
  });

  it('leave argon2 loadable: it hashes and verifies a password', async () => {
    const argon2 = await import('argon2');
    const hash = await argon2.hash('correct horse battery staple', { type: argon2.argon2id });
    expect(await argon2.verify(hash, 'correct horse battery staple')).toBe(true);
  });
});
