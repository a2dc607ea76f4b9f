import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { readTestCertificate } from './test-ca';

/** Runs in the child: answers 200 and writes one JSON line per request, when its body has arrived. */
const CHILD = `
const https = require('node:https');
const server = https.createServer({ cert: process.env.RECEIVER_CERT, key: process.env.RECEIVER_KEY }, (req, res) => {
  req.on('data', () => undefined);
  req.on('end', () => {
    process.stdout.write(JSON.stringify({ id: Number(req.headers['webhook-id']), at: Date.now() }) + '\\n');
    res.writeHead(200).end('ok');
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write('listening ' + server.address().port + '\\n'));
`;

export interface Arrival {
  /** The event id (its `webhook-id` header). */
  id: number;
  /** When its body had arrived, by the receiver's clock (ms since the epoch). */
  at: number;
}

/**
 * An HTTPS receiver on 127.0.0.1 in a process of its own, answering 200 at once: when a request
 * arrived is read by a clock that the test process's event loop (where the platform runs) cannot
 * hold back, so that arrivals are counted in the second they came in.
 */
export function startArrivalLogReceiver(): Promise<{ url: string; arrivals: Arrival[]; stop(): void }> {
  const { cert, key } = readTestCertificate();
  const child = spawn(process.execPath, ['-e', CHILD], { env: { ...process.env, RECEIVER_CERT: cert, RECEIVER_KEY: key }, stdio: ['ignore', 'pipe', 'inherit'] });
  const arrivals: Arrival[] = [];
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`receiver exited with ${code}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const listening = /^listening (\d+)$/.exec(line);
      if (listening) resolve({ url: `https://127.0.0.1:${listening[1]}`, arrivals, stop: () => child.kill() });
      else arrivals.push(JSON.parse(line) as Arrival);
    });
  });
}
