/**
 * Phase (f) of `npm run bench:delivery`: what FIFO ordering costs per delivery, against plain
 * endpoints on the same platform in the same run. BENCH_ONLY=fifo runs this phase alone.
 *
 *   (f1) plain      BENCH_LIMITS_RATE events/s (20) for BENCH_LIMITS_SECONDS (30) to endpoints without ordering.
 *   (f2) fifo       the same to FIFO endpoints (one delivery at a time each, never waiting at this
 *                   rate): the store round trips of a place, a turn and a leave, and the wake-up signal.
 *   (f3) plain      a burst of BENCH_FIFO_BURST events (300) to one plain endpoint: delivered/s.
 *   (f4) fifo       the same burst to one FIFO endpoint: delivered/s one at a time, and the CPU per
 *                   delivery while most of them wait their turn (a look at the queue, then a wake-up).
 *
 * CPU is that of the platform's processes (embedded servers included), not this benchmark's.
 */
import { burst, steady } from './endpoint-limits-phase';
import { createAccounts, type BenchPlatform, type IngestClient, log, type Receiver } from './delivery-support';

const BURST = Number(process.env.BENCH_FIFO_BURST ?? 300);
const ACCOUNTS = 10;
const FIFO = { ordering: 'fifo' };

/** Runs (f1) to (f4) on a running platform; answers the report's lines. */
export async function measureFifo(platform: BenchPlatform, client: IngestClient, receiver: Receiver): Promise<string[]> {
  const plainKeys = await createAccounts(platform.mongoUri, platform.apiUrl, ACCOUNTS, receiver.url);
  const fifoKeys = await createAccounts(platform.mongoUri, platform.apiUrl, ACCOUNTS, receiver.url, FIFO);
  const [plainKey] = await createAccounts(platform.mongoUri, platform.apiUrl, 1, receiver.url);
  const [fifoKey] = await createAccounts(platform.mongoUri, platform.apiUrl, 1, receiver.url, FIFO);
  const lines = [
    `(f1) ${await steady('plain endpoints', platform, client, receiver, plainKeys, '(f)')}`,
    `(f2) ${await steady('FIFO endpoints', platform, client, receiver, fifoKeys, '(f)')}`,
  ];
  const plain = await burst('one plain endpoint', platform, client, receiver, plainKey as string, BURST, '(f)');
  lines.push(`(f3) ${plain.line}`);
  const fifo = await burst('one FIFO endpoint', platform, client, receiver, fifoKey as string, BURST, '(f)');
  lines.push(`(f4) ${fifo.line} (${(fifo.perSecond / plain.perSecond).toFixed(2)} of the plain endpoint's rate)`);
  for (const line of lines) log(line);
  return lines;
}
