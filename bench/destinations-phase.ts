/**
 * Phase (g) of `npm run bench:delivery`: what each destination type costs per delivery, against HTTPS
 * on the same platform in the same run. BENCH_ONLY=destinations runs this phase alone.
 *
 * RabbitMQ, Kafka (one KRaft node) and ElasticMQ (SQS) are started as the tests start them
 * (test/support/brokers.ts: provisioned into TOOLS_DIR, on free ports of 127.0.0.1), and each type gets
 * BENCH_DEST_ACCOUNTS (4) accounts with one endpoint each: this benchmark's HTTPS receiver, a durable
 * exchange bound to a durable queue, a topic of one partition, a standard queue. Each type in turn is
 * offered BENCH_DEST_RATE events/s (20) for BENCH_DEST_SECONDS (30), while this process consumes what
 * arrives (an AMQP consumer that acks, a Kafka consumer group, SQS long polls that delete what they
 * take) and times ingest → arrival. Types take turns rather than share the offer, so that each window's
 * CPU is that type's alone; BENCH_DEST_ROUNDS (2) runs the turns again in reverse order, as the
 * machine's speed drifts within a run.
 *
 * Per type and round: delivered/s (first send to last arrival), ingest → arrival p50 / p99, lost (not
 * arrived within BENCH_DEST_DRAIN_SECONDS, 120), duplicates (events that arrived twice; a broker's own
 * redelivery of one message is not counted), the platform's CPU per delivery (its process and embedded
 * servers, as in (e) and (f)) and its ratio to HTTPS's in the same round, and the type's broker CPU per
 * delivery over its window, with the share of it the broker uses idle (read for 5 s after the
 * warm-up, when nothing is in flight: every broker runs through every turn). The consumers run in
 * this process: their fetches are part of the broker's CPU, as a customer's consumer's would be.
 */
import amqp from 'amqplib';
import { CreateQueueCommand, DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { Kafka, logLevel } from 'kafkajs';
import { type BrokerKind, startBroker, type TestBroker } from '../test/support/brokers';
import { platformCpu } from './endpoint-limits-phase';
import { type BenchPlatform, cpuSeconds, createAccountsWith, type IngestClient, log, ms, offer, pct, type Receiver, sleep, waitFor } from './delivery-support';

const RATE = Number(process.env.BENCH_DEST_RATE ?? 20);
const SECONDS = Number(process.env.BENCH_DEST_SECONDS ?? 30);
const ROUNDS = Number(process.env.BENCH_DEST_ROUNDS ?? 2);
const ACCOUNTS = Number(process.env.BENCH_DEST_ACCOUNTS ?? 4);
const DRAIN_MS = Number(process.env.BENCH_DEST_DRAIN_SECONDS ?? 120) * 1000;
const IDLE_MS = 5000;
/** The exchange, routing key, queue and topic the brokers' endpoints publish to. */
const NAME = 'bench';

type DestinationType = 'https' | BrokerKind;

/** Where one type's deliveries arrive, as this process consumes them. */
interface Destination {
  type: DestinationType;
  /** The endpoint's registration body. */
  endpoint: Record<string, unknown>;
  /** Event id → arrival times (performance.now()), one per message. */
  arrivals: Map<number, number[]>;
  /** CPU seconds of the broker's process so far (0 for HTTPS: the receiver is this process). */
  brokerCpu(): number;
  /** The broker's CPU milliseconds per second while nothing is sent to it. */
  idleMsPerS: number;
  close(): Promise<void>;
}

/** Arrivals by event id, each message counted once however often its broker hands it over. */
function arrivalLog() {
  const arrivals = new Map<number, number[]>();
  const seen = new Set<string>();
  return {
    arrivals,
    record(eventId: number, message: string) {
      if (seen.has(message)) return;
      seen.add(message);
      arrivals.set(eventId, [...(arrivals.get(eventId) ?? []), performance.now()]);
    },
  };
}

const brokerCpu = (broker: TestBroker) => () => cpuSeconds(broker.pid() ?? 0);

async function rabbitMq(broker: TestBroker): Promise<Destination> {
  const { arrivals, record } = arrivalLog();
  const connection = await amqp.connect(broker.address);
  const channel = await connection.createChannel();
  await channel.assertExchange(NAME, 'direct', { durable: true });
  await channel.assertQueue(NAME, { durable: true });
  await channel.bindQueue(NAME, NAME, NAME);
  await channel.prefetch(100);
  await channel.consume(NAME, (m) => {
    if (!m) return;
    // A message the broker hands over again (redelivered) is one this consumer has had: it counts once.
    if (!m.fields.redelivered) record(Number(m.properties.messageId), String(m.fields.deliveryTag));
    channel.ack(m);
  });
  const user = new URL(broker.address);
  return {
    type: 'rabbitmq',
    endpoint: {
      destination: {
        type: 'rabbitmq',
        config: { uri: `amqp://${user.host}/`, exchange: NAME, routing_key: NAME },
        credentials: { username: decodeURIComponent(user.username), password: decodeURIComponent(user.password) },
      },
    },
    arrivals,
    brokerCpu: brokerCpu(broker),
    idleMsPerS: 0,
    close: () => connection.close(),
  };
}

async function kafka(broker: TestBroker): Promise<Destination> {
  const { arrivals, record } = arrivalLog();
  const client = new Kafka({ clientId: 'bench', brokers: [broker.address], logLevel: logLevel.NOTHING });
  const admin = client.admin();
  await admin.connect();
  try {
    await admin.createTopics({ topics: [{ topic: NAME, numPartitions: 1 }], waitForLeaders: true });
  } finally {
    await admin.disconnect();
  }
  // kafkajs's defaults: a fetch waits on the broker until a message lands (or 5 s), as a customer's consumer's would.
  const consumer = client.consumer({ groupId: NAME });
  await consumer.connect();
  await consumer.subscribe({ topic: NAME, fromBeginning: true });
  const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
  await consumer.run({ eachMessage: async ({ message, partition }) => record(Number(message.key?.toString()), `${partition}/${message.offset}`) });
  // Measured only once the group has its partition: a first join would otherwise count as latency.
  await joined;
  return {
    type: 'kafka',
    endpoint: { destination: { type: 'kafka', config: { brokers: [broker.address], topic: NAME, tls: false } } },
    arrivals,
    brokerCpu: brokerCpu(broker),
    idleMsPerS: 0,
    close: () => consumer.disconnect(),
  };
}

async function sqs(broker: TestBroker): Promise<Destination> {
  const { arrivals, record } = arrivalLog();
  const region = 'eu-west-1';
  // ElasticMQ checks no signature: any key reads.
  const client = new SQSClient({ endpoint: broker.address, region, credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' } });
  const queueUrl = (await client.send(new CreateQueueCommand({ QueueName: NAME }))).QueueUrl as string;
  let open = true;
  const poll = async () => {
    while (open) {
      try {
        const { Messages = [] } = await client.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1, MessageAttributeNames: ['X-Webhook-ID'] }));
        for (const m of Messages) record(Number(m.MessageAttributes?.['X-Webhook-ID']?.StringValue), m.MessageId as string);
        // Deleted at once: a message left past its visibility time-out would be received again.
        if (Messages.length) await client.send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })) }));
      } catch (err) {
        log(`(g) sqs consumer: ${String(err)}`);
        await sleep(500);
      }
    }
  };
  // Two pollers: one receives while the other deletes.
  const pollers = [poll(), poll()];
  return {
    type: 'sqs',
    endpoint: {
      destination: { type: 'sqs', config: { queue_url: queueUrl, region }, credentials: { access_key_id: 'AKIABENCH', secret_access_key: 'bench-secret' } },
    },
    arrivals,
    brokerCpu: brokerCpu(broker),
    idleMsPerS: 0,
    close: async () => {
      open = false;
      await Promise.all(pollers);
      client.destroy();
    },
  };
}

const CONSUMERS: Record<BrokerKind, (broker: TestBroker) => Promise<Destination>> = { rabbitmq: rabbitMq, kafka, sqs };

interface Turn {
  type: DestinationType;
  round: number;
  accepted: number;
  delivered: number;
  perSecond: number;
  e2e: number[];
  lost: number;
  duplicates: number;
  platformMs: number;
  brokerMs: number;
  /** What the broker would have used idle over the same window, per delivery. */
  brokerIdleMs: number;
}

/** One type's turn: RATE events/s for SECONDS over `keys`, until every accepted event arrived (or DRAIN_MS passed). */
async function turn(destination: Destination, round: number, platform: BenchPlatform, client: IngestClient, keys: string[]): Promise<Turn> {
  const { type, arrivals } = destination;
  log(`(g) ${type}, round ${round}: ${RATE} events/s for ${SECONDS} s...`);
  const fromPlatform = platformCpu(platform.cpu());
  const fromBroker = destination.brokerCpu();
  const { sent, start } = await offer(client, platform.nextApiUrl, keys, RATE, SECONDS, `dest-${type}-${round}-${Date.now()}`, { type: 'bench.destination' });
  const accepted = sent.filter((s) => s.ids.size > 0);
  const ids = accepted.flatMap((s) => [...s.ids]);
  await waitFor(() => ids.every((id) => arrivals.has(id)), DRAIN_MS);
  const platformMs = (platformCpu(platform.cpu()) - fromPlatform) * 1000;
  const brokerMs = (destination.brokerCpu() - fromBroker) * 1000;
  const windowSeconds = (performance.now() - start) / 1000;
  // A late second copy would still be counted.
  await sleep(2000);
  const e2e = accepted.filter((s) => [...s.ids].some((id) => arrivals.has(id))).map((s) => Math.min(...[...s.ids].map((id) => arrivals.get(id)?.[0] ?? Infinity)) - s.acceptedAt!);
  const arrived = ids.filter((id) => arrivals.has(id));
  const last = Math.max(...arrived.map((id) => arrivals.get(id)![0] as number));
  return {
    type,
    round,
    accepted: accepted.length,
    delivered: arrived.length,
    perSecond: arrived.length / ((last - start) / 1000),
    e2e,
    lost: ids.length - arrived.length,
    duplicates: arrived.filter((id) => arrivals.get(id)!.length > 1).length,
    platformMs: platformMs / Math.max(1, arrived.length),
    brokerMs: brokerMs / Math.max(1, arrived.length),
    brokerIdleMs: (destination.idleMsPerS * windowSeconds) / Math.max(1, arrived.length),
  };
}

function turnLine(t: Turn, https: Turn | undefined): string {
  const ratio = https && t.type !== 'https' ? ` (${(t.platformMs / https.platformMs).toFixed(2)} × HTTPS's)` : '';
  const broker = t.type === 'https' ? '' : `; ${t.type} ${ms(t.brokerMs)} CPU per delivery (${ms(t.brokerIdleMs)} of it what it uses idle)`;
  return (
    `(g) ${t.type}, round ${t.round}: ${t.accepted} events accepted, ${t.delivered} delivered at ${t.perSecond.toFixed(1)}/s; ` +
    `ingest → arrival p50 ${ms(pct(t.e2e, 50))}, p99 ${ms(pct(t.e2e, 99))}; lost ${t.lost}; duplicates ${t.duplicates}; ` +
    `platform ${ms(t.platformMs)} CPU per delivery${ratio}${broker}`
  );
}

/** Starts the three brokers (stopping those started when one fails). */
async function startBrokers(): Promise<Map<BrokerKind, TestBroker>> {
  const kinds: BrokerKind[] = ['rabbitmq', 'kafka', 'sqs'];
  log('(g) provisioning and starting RabbitMQ, Kafka and ElasticMQ...');
  const started = await Promise.allSettled(kinds.map((kind) => startBroker(kind)));
  const brokers = new Map<BrokerKind, TestBroker>();
  started.forEach((s, i) => s.status === 'fulfilled' && brokers.set(kinds[i] as BrokerKind, s.value));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await Promise.all([...brokers.values()].map((b) => b.stop()));
    throw failed.reason;
  }
  return brokers;
}

/** Runs (g) on a running platform with `receiver` as the HTTPS destination; answers the report's lines. */
export async function measureDestinations(platform: BenchPlatform, client: IngestClient, receiver: Receiver): Promise<string[]> {
  const brokers = await startBrokers();
  const destinations: Destination[] = [];
  try {
    destinations.push({ type: 'https', endpoint: { url: receiver.url }, arrivals: receiver.arrivals, brokerCpu: () => 0, idleMsPerS: 0, close: async () => undefined });
    for (const [kind, broker] of brokers) destinations.push(await CONSUMERS[kind](broker));
    const keys = new Map<DestinationType, string[]>();
    for (const d of destinations) {
      keys.set(d.type, await createAccountsWith(platform.mongoUri, platform.apiUrl, ACCOUNTS, d.endpoint));
      // Connections to the broker opened, and the code paths compiled, before the measured turns.
      const { sent } = await offer(client, platform.nextApiUrl, keys.get(d.type)!, 25, 2, `dest-warm-up-${d.type}-${Date.now()}`, { type: 'bench.warmup' });
      await waitFor(() => sent.every((s) => [...s.ids].every((id) => d.arrivals.has(id))), DRAIN_MS);
    }
    // Every broker idles through the other types' turns: its CPU then, read now that nothing is in flight.
    const idleFrom = destinations.map((d) => d.brokerCpu());
    await sleep(IDLE_MS);
    destinations.forEach((d, i) => (d.idleMsPerS = ((d.brokerCpu() - (idleFrom[i] as number)) * 1000) / (IDLE_MS / 1000)));
    const lines = [`(g) brokers' CPU while idle: ${destinations.filter((d) => d.type !== 'https').map((d) => `${d.type} ${ms(d.idleMsPerS)}/s`).join(', ')}`];
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 === 1 ? destinations : [...destinations].reverse();
      const turns: Turn[] = [];
      for (const d of order) turns.push(await turn(d, round, platform, client, keys.get(d.type)!));
      const https = turns.find((t) => t.type === 'https');
      for (const d of destinations) lines.push(turnLine(turns.find((t) => t.type === d.type)!, https));
    }
    for (const line of lines) log(line);
    return lines;
  } finally {
    for (const d of destinations) await d.close().catch(() => undefined);
    await Promise.all([...brokers.values()].map((b) => b.stop()));
  }
}
