/**
 * Phase (a) of `npm run bench:delivery`: BENCH_RATE events/s (20) offered for BENCH_SECONDS (60), half of them of a
 * type that has a JSON Schema in its account's event-type catalog (checked at ingest) and half of a type that has none,
 * in alternate rounds of the accounts, so in the same minutes on the same platform: ingest p50 / p99 of each and their difference, what the schema check
 * costs an ingest. BENCH_ONLY=steady runs this phase alone.
 */
import { request } from 'undici';
import { type BenchPlatform, cpuShares, type IngestClient, type IngestOutcome, log, ms, pct, type Receiver, sleep, waitFor } from './delivery-support';

const RATE = Number(process.env.BENCH_RATE ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);

const PLAIN_TYPE = 'bench.steady';
const CHECKED_TYPE = 'bench.steady.checked';

/** A schema of the size and kinds of keywords a real event type has: nested objects, formats, a pattern, an enum, an array of items. */
const SCHEMA = {
  type: 'object',
  properties: {
    i: { type: 'integer', minimum: 0 },
    invoice_id: { type: 'string', pattern: '^in_[A-Za-z0-9]{8,32}$' },
    amount: { type: 'integer', minimum: 0 },
    currency: { enum: ['usd', 'eur', 'gbp'] },
    paid_at: { type: 'string', format: 'date-time' },
    customer: { type: 'object', properties: { id: { type: 'string' }, email: { type: 'string', format: 'email' } }, required: ['id', 'email'] },
    lines: {
      type: 'array',
      maxItems: 100,
      items: { type: 'object', properties: { sku: { type: 'string', minLength: 1 }, quantity: { type: 'integer', minimum: 1 } }, required: ['sku', 'quantity'] },
    },
  },
  required: ['i', 'invoice_id', 'amount', 'currency', 'customer'],
  additionalProperties: false,
};

/** The same data for both types, matching the schema. */
const dataOf = (i: number) => ({
  i,
  invoice_id: `in_${String(i).padStart(8, '0')}`,
  amount: 4200,
  currency: 'eur',
  paid_at: '2026-11-29T12:00:00Z',
  customer: { id: 'cus_1', email: 'billing@example.com' },
  lines: [
    { sku: 'A-1', quantity: 2 },
    { sku: 'B-2', quantity: 1 },
  ],
});

/** Registers the checked type in each account's catalog. */
async function registerSchema(apiUrl: string, keys: string[]): Promise<void> {
  for (const key of keys) {
    const res = await request(`${apiUrl}/api/v1/webhooks/event-types`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: CHECKED_TYPE, description: 'bench: ingest checks data against this schema', schema: SCHEMA }),
    });
    const text = await res.body.text();
    if (res.statusCode !== 201) throw new Error(`registering ${CHECKED_TYPE}: ${res.statusCode} ${text}`);
  }
}

/** Runs (a) on a running platform with `keys`' accounts in turn; answers the report's lines. */
export async function measureSteady(platform: BenchPlatform, client: IngestClient, receiver: Receiver, keys: string[]): Promise<string[]> {
  await registerSchema(platform.apiUrl, keys);
  log(`(a) ${RATE} events/s offered for ${SECONDS} s, half of a type with a schema...`);
  const from = platform.cpu();
  const sent: Array<Promise<IngestOutcome & { sent: number; checked: boolean }>> = [];
  const start = performance.now();
  for (let i = 0; i < RATE * SECONDS; i++) {
    const wait = start + (i * 1000) / RATE - performance.now();
    if (wait > 0) await sleep(wait);
    const at = performance.now();
    // One round of the accounts plain, the next checked: each account sends both types, interleaved in time.
    const checked = Math.floor(i / keys.length) % 2 === 1;
    const key = keys[i % keys.length] as string;
    sent.push(client.ingest(platform.apiUrl, key, { type: checked ? CHECKED_TYPE : PLAIN_TYPE, data: dataOf(i) }).then((o) => ({ ...o, sent: at, checked })));
  }
  const done = await Promise.all(sent);
  const accepted = done.filter((s) => s.status === 202);
  await waitFor(() => accepted.every((s) => receiver.arrivals.has(s.id!)), 120_000);
  const cpu = `CPU (of one core): ${cpuShares(from, platform.cpu())}`;
  const e2e = accepted.filter((s) => receiver.arrivals.has(s.id!)).map((s) => receiver.arrivals.get(s.id!)![0] - s.sent);
  const latencies = (checked: boolean) => done.filter((s) => s.checked === checked).map((s) => s.latencyMs);
  const [plain, schema] = [latencies(false), latencies(true)];
  const lines = [
    `(a) ${RATE}/s offered for ${SECONDS} s (${done.length} events, ${accepted.length} accepted): ingest p50 ${ms(pct(done.map((s) => s.latencyMs), 50))}, p99 ${ms(pct(done.map((s) => s.latencyMs), 99))}; ingest → receiver p50 ${ms(pct(e2e, 50))}, p99 ${ms(pct(e2e, 99))}; not delivered ${accepted.length - e2e.length}; ${cpu}`,
    `(a) schema check: ingest p50 ${ms(pct(schema, 50))} with a schema (${schema.length} events), ${ms(pct(plain, 50))} without (${plain.length}): ${ms(pct(schema, 50) - pct(plain, 50))} more; p99 ${ms(pct(schema, 99))} and ${ms(pct(plain, 99))}`,
  ];
  for (const line of lines) log(line);
  return lines;
}
