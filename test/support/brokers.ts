import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { startElasticMq, startKafka, startRabbitMq } from '../../src/infra/embedded-brokers';
import { EmbeddedServer, freePort } from '../../src/infra/embedded-servers';
import { provision } from '../../src/infra/provision';

export type BrokerKind = 'rabbitmq' | 'kafka' | 'sqs';

export interface BrokerOptions {
  /** RabbitMQ's user instead of guest (a password a test can look for). */
  rabbitMqUser?: { username: string; password: string };
}

export interface TestBroker {
  /** An AMQP URI, a Kafka bootstrap server (host:port), or an SQS endpoint URL; the same across `down` and `up`. */
  address: string;
  /** Stops the broker, keeping its ports and state: a broker that is down. */
  down(): Promise<void>;
  /** Starts it again where it was, with what it had stored. */
  up(): Promise<void>;
  /** Stops the broker and removes its state. */
  stop(): Promise<void>;
  /** The broker's process id while it is up (a benchmark reads its CPU time). */
  pid(): number | undefined;
}

/** A first provisioning fetches tens of MB, and a JVM or Erlang start takes many seconds on a busy machine. */
const BROKER_START_TIMEOUT_MS = 10 * 60_000;

/** The broker of the calling file's tests: started before them, stopped after. Call it at a describe block's top. */
export function brokerForTests(kind: BrokerKind, options: BrokerOptions = {}): () => TestBroker {
  let broker: TestBroker | undefined;
  beforeAll(async () => {
    broker = await startBroker(kind, options);
  }, BROKER_START_TIMEOUT_MS);
  afterAll(() => broker?.stop());
  return () => {
    if (!broker) throw new Error(`the ${kind} broker has not started`);
    return broker;
  };
}

/**
 * A real broker of its own for one test file: provisioned on first use into TOOLS_DIR (cached, as the
 * embedded servers are), started on free ports on 127.0.0.1 with its state in a new temporary directory.
 */
export async function startBroker(kind: BrokerKind, options: BrokerOptions = {}): Promise<TestBroker> {
  await provision({ need: { temporalCli: false, ferretDb: false, temporalTestServer: false, rabbitMq: kind === 'rabbitmq', kafka: kind === 'kafka', elasticMq: kind === 'sqs' } });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `broker-${kind}-`));
  const ports = await Promise.all([freePort(), freePort(), freePort()]);
  let server: EmbeddedServer | undefined;
  const up = async () => {
    server = await start(kind, dataDir, ports, options);
    if (kind === 'kafka') await kafkaGroupsReady(server.address);
    return server;
  };
  const down = async () => {
    await server?.stop();
    server = undefined;
  };
  let first: EmbeddedServer;
  try {
    first = await up();
  } catch (err) {
    await down();
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  return {
    address: first.address,
    down,
    async up() {
      await up();
    },
    async stop() {
      await down();
      await rm(dataDir, { recursive: true, force: true });
    },
    pid: () => server?.pid(),
  };
}

function start(kind: BrokerKind, dataDir: string, [port, second, third]: number[], options: BrokerOptions) {
  switch (kind) {
    case 'rabbitmq':
      return startRabbitMq({ dataDir, port, distPort: second, epmdPort: third, ...(options.rabbitMqUser && { user: options.rabbitMqUser }) });
    case 'kafka':
      return startKafka({ dataDir, port, controllerPort: second });
    case 'sqs':
      return startElasticMq({ dataDir, port });
  }
}

/**
 * Kafka creates its consumer-offsets topic on the first group lookup and answers "coordinator not
 * available" or "loading" until it has: asked once here (quietly, those answers being expected),
 * so that a test's first consumer meets a ready broker.
 */
async function kafkaGroupsReady(address: string): Promise<void> {
  const admin = new Kafka({ clientId: 'broker-warm-up', brokers: [address], logLevel: logLevel.NOTHING, retry: { retries: 20 } }).admin();
  await admin.connect();
  try {
    await admin.describeGroups(['warm-up']);
  } finally {
    await admin.disconnect();
  }
}
