import path from 'node:path';
import { LOCAL_LISTENER_HOST } from '../domain/webhooks/local-listener';
import { readIfPresent, readOrWriteOnce } from './write-once';

/** The only CA trusted for `listen.localhost` (`cli listen`): its key never leaves DATA_DIR (mode 0600); a new certificate per run. */
export interface Pem {
  cert: string;
  key: string;
}

const CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n?/;
const PRIVATE_KEY = /-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----\n?/;
const CA_FILE = 'local-listener-ca.pem';

/** The CA certificate (PEM), or null when no listener has run on this DATA_DIR yet. */
export async function readLocalListenerCaCert(dataDir: string): Promise<string | null> {
  const file = path.join(dataDir, CA_FILE);
  const text = await readIfPresent(file);
  return text === undefined ? null : parseCa(file, text).cert;
}

/** The CA, created on first use (readOrWriteOnce: two listeners starting at once agree on one CA). */
export async function ensureLocalListenerCa(dataDir: string): Promise<Pem> {
  const file = path.join(dataDir, CA_FILE);
  const text = await readOrWriteOnce(file, async () => {
    const { generate } = await import('selfsigned'); // only where certificates are made: the worker only reads
    const pems = await generate([{ name: 'commonName', value: 'devops-platform local listener CA' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      notAfterDate: new Date(Date.now() + 10 * 365 * 24 * 3600 * 1000),
      extensions: [
        { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
      ],
    });
    return pems.cert + pems.private;
  });
  return parseCa(file, text);
}

/** A server certificate for `listen.localhost`, signed by the CA, for one listener run. */
export async function issueListenerCertificate(ca: Pem): Promise<Pem> {
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: LOCAL_LISTENER_HOST }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 30 * 24 * 3600 * 1000),
    ca,
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: LOCAL_LISTENER_HOST }] },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

function parseCa(file: string, text: string): Pem {
  const cert = CERTIFICATE.exec(text)?.[0];
  const key = PRIVATE_KEY.exec(text)?.[0];
  if (!cert || !key) throw new Error(`${file} is not a listener CA (a certificate and a private key): remove it and run cli listen again`);
  return { cert, key };
}
