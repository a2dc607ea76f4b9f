import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generate } from 'selfsigned';

export interface TestCertificate {
  certFile: string;
  keyFile: string;
}

/**
 * A self-signed certificate for 127.0.0.1 / localhost that is its own CA: receivers serve
 * it, and the platform trusts it through NODE_EXTRA_CA_CERTS (read by Node at start-up,
 * so the test runner sets it before jest starts).
 */
export async function ensureTestCertificate(dir: string): Promise<TestCertificate> {
  const certFile = path.join(dir, 'test-ca.pem');
  const keyFile = path.join(dir, 'test-ca.key');
  if (existsSync(certFile) && existsSync(keyFile)) return { certFile, keyFile };
  await mkdir(dir, { recursive: true });
  const pems = await generate([{ name: 'commonName', value: 'platform test receivers' }], {
    keyType: 'ec',
    curve: 'P-256',
    notAfterDate: new Date(Date.now() + 5 * 365 * 24 * 3600 * 1000),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }, { type: 2, value: 'localhost' }] },
    ],
  });
  await writeFile(keyFile, pems.private, { mode: 0o600 });
  await writeFile(certFile, pems.cert);
  return { certFile, keyFile };
}

export function readTestCertificate(): { cert: string; key: string } {
  const certFile = process.env.NODE_EXTRA_CA_CERTS;
  if (!certFile) throw new Error('NODE_EXTRA_CA_CERTS is not set: run the tests through `npm test`');
  return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(certFile.replace(/\.pem$/, '.key'), 'utf8') };
}
