/**
 * `npm test`: installs what is missing (embedded servers, test server, test CA), type-checks,
 * then runs jest with NODE_EXTRA_CA_CERTS set, which Node reads only at start-up.
 * Extra arguments go to jest (e.g. `npm test -- test/unit`).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { provision } from '../src/infra/provision';
import { PROJECT_ROOT } from '../src/infra/tools';
import { ensureTestCertificate } from '../test/support/test-ca';

async function main(): Promise<number> {
  const started = Date.now();
  await provision({ need: { temporalCli: !process.env.TEMPORAL_ADDRESS, ferretDb: !process.env.MONGODB_URI, temporalTestServer: true } });
  const cert = await ensureTestCertificate(path.join(PROJECT_ROOT, '.data', 'test-ca'));
  process.stderr.write(`[test] provisioning checked in ${Math.round((Date.now() - started) / 1000)} s; type-checking...\n`);
  const bin = (name: string) => path.join(PROJECT_ROOT, 'node_modules', '.bin', name);
  const tsc = spawnSync(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json'], { stdio: 'inherit', cwd: PROJECT_ROOT });
  if (tsc.status !== 0) return tsc.status ?? 1;
  const jest = spawnSync(bin('jest'), process.argv.slice(2), {
    stdio: 'inherit',
    cwd: PROJECT_ROOT,
    env: { ...process.env, NODE_EXTRA_CA_CERTS: cert.certFile },
  });
  return jest.status ?? 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`[test] ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
