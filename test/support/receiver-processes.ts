import { ChildProcess, spawn } from 'node:child_process';
import https from 'node:https';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { RECEIVERS_DIR, VENV_PYTHON } from './receiver-toolchains';

/** One request a receiver process got, with what its library concluded (its answer's status). */
export interface LoggedRequest {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface ReceiverProcess {
  url: string;
  requests: LoggedRequest[];
  stop(): void;
}

export interface ReceiverProcessOptions {
  secrets: string[];
  /** Shifts the receiver's clock (to judge a replay "later"). */
  clockOffsetSeconds?: number;
  tls: { certFile: string; keyFile: string };
}

/**
 * Starts one of the example receivers (receivers/python/examples/receiver.py, receivers/go's
 * example-receiver binary) on a free port and follows its one-JSON-line-per-request log.
 */
export function startReceiverProcess(kind: 'python' | 'go', binary: string | undefined, options: ReceiverProcessOptions): Promise<ReceiverProcess> {
  const env = {
    ...process.env,
    WEBHOOK_SECRETS: options.secrets.join(' '),
    CLOCK_OFFSET_SECONDS: String(options.clockOffsetSeconds ?? 0),
    TLS_CERT: options.tls.certFile,
    TLS_KEY: options.tls.keyFile,
    PORT: '0',
    PYTHONPATH: path.join(RECEIVERS_DIR, 'python', 'src'),
  };
  const child: ChildProcess =
    kind === 'python'
      ? spawn(VENV_PYTHON, [path.join(RECEIVERS_DIR, 'python', 'examples', 'receiver.py')], { env, stdio: ['ignore', 'pipe', 'inherit'] })
      : spawn(binary as string, [], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const requests: LoggedRequest[] = [];
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${kind} receiver exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const listening = /^listening (\d+)$/.exec(line);
      if (listening) {
        resolve({ url: `https://127.0.0.1:${listening[1]}`, requests, stop: () => child.kill() });
        return;
      }
      const logged = JSON.parse(line) as { status: number; headers: Record<string, string>; body_base64: string };
      requests.push({ status: logged.status, headers: logged.headers, body: Buffer.from(logged.body_base64, 'base64') });
    });
  });
}

/** POSTs exact bytes with exact headers (a replay, or a tampered copy) and returns the answer. */
export function sendRaw(url: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method: 'POST', headers: { ...headers, 'content-length': String(body.length) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The same receiver written with the TypeScript library (node:crypto), in this process. */
export async function startTypeScriptReceiver(options: ReceiverProcessOptions): Promise<ReceiverProcess> {
  const { verifySync, WebhookVerificationError } = await import('../../receivers/typescript/src/node');
  const { readFileSync } = await import('node:fs');
  const requests: LoggedRequest[] = [];
  const server = https.createServer({ cert: readFileSync(options.tls.certFile), key: readFileSync(options.tls.keyFile) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let status = 200;
      let answer: object;
      try {
        answer = { verified: verifySync(body, req.headers, { secrets: options.secrets, now: () => Date.now() / 1000 + (options.clockOffsetSeconds ?? 0) }).id };
      } catch (err) {
        if (!(err instanceof WebhookVerificationError)) throw err;
        status = 401;
        answer = { error: err.code };
      }
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
      requests.push({ status, headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), body });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as import('node:net').AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    requests,
    stop: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
