import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EmbeddedServer, ServerOptions, startChild } from './embedded-servers';
import { run } from './run-tool';
import { TOOL_VERSIONS, toolPaths } from './tools';

const HOST = '127.0.0.1';

/**
 * RabbitMQ from the unpacked Debian packages, with an epmd of its own on `epmdPort` (Erlang's
 * name server, which would otherwise daemonize on the machine-wide 4369 and outlive the run),
 * and its cookie, config and Mnesia under `<dataDir>/rabbitmq`, never /etc or /var/lib.
 * The address is an AMQP URI for the default guest user, which RabbitMQ admits on loopback only, or for `user`
 * (made on the first start, with every permission on vhost "/").
 */
export async function startRabbitMq(options: ServerOptions & { distPort: number; epmdPort: number; user?: { username: string; password: string } }): Promise<EmbeddedServer> {
  const root = toolPaths().rabbitMq;
  const erlangBin = path.join(root, 'usr', 'lib', 'erlang', 'bin');
  const state = path.join(options.dataDir, 'rabbitmq');
  await mkdir(state, { recursive: true });
  const user = options.user ?? { username: 'guest', password: 'guest' };
  const userLines = options.user ? `default_user = ${user.username}\ndefault_pass = ${user.password}\n` : '';
  await writeFile(path.join(state, 'rabbitmq.conf'), `listeners.tcp.default = ${HOST}:${options.port}\nlog.console = false\nlog.file.level = warning\n${userLines}`);
  await writeFile(path.join(state, 'enabled_plugins'), '[].\n');
  const epmd = await startChild('epmd', { dataDir: options.dataDir, port: options.epmdPort }, {
    label: 'epmd',
    command: path.join(erlangBin, 'epmd'),
    args: ['-port', String(options.epmdPort), '-address', HOST],
    address: `${HOST}:${options.epmdPort}`,
    readyTimeoutMs: 10_000,
  });
  const server = await startChild('rabbitmq', options, {
    label: `RabbitMQ ${TOOL_VERSIONS.rabbitMq}`,
    command: path.join(root, 'usr', 'lib', 'rabbitmq', 'bin', 'rabbitmq-server'),
    args: [],
    env: {
      // The script then execs erl, as under systemd, rather than wait on it: signals (SIGKILL, a Ctrl-C) reach the server itself.
      RUNNING_UNDER_SYSTEMD: 'true',
      HOME: state,
      PATH: `${erlangBin}:${process.env.PATH ?? ''}`,
      ERL_EPMD_PORT: String(options.epmdPort),
      RABBITMQ_NODENAME: `rabbit-${options.port}@localhost`,
      RABBITMQ_DIST_PORT: String(options.distPort),
      RABBITMQ_CONF_ENV_FILE: path.join(state, 'rabbitmq-env.conf'),
      RABBITMQ_CONFIG_FILE: path.join(state, 'rabbitmq.conf'),
      RABBITMQ_ADVANCED_CONFIG_FILE: path.join(state, 'advanced.config'),
      RABBITMQ_ENABLED_PLUGINS_FILE: path.join(state, 'enabled_plugins'),
      RABBITMQ_MNESIA_BASE: path.join(state, 'mnesia'),
      RABBITMQ_LOG_BASE: path.join(state, 'log'),
      RABBITMQ_PID_FILE: path.join(state, 'rabbitmq.pid'),
    },
    address: `amqp://${encodeURIComponent(user.username)}:${encodeURIComponent(user.password)}@${HOST}:${options.port}`,
    readyTimeoutMs: 120_000,
  }).catch(async (err: unknown) => {
    await epmd.stop();
    throw err;
  });
  return {
    ...server,
    async stop(killAfterMs?: number) {
      const how = await server.stop(killAfterMs);
      await epmd.stop();
      return how;
    },
    kill() {
      server.kill();
      epmd.kill();
    },
  };
}

/**
 * Apache Kafka's broker as one KRaft node (broker and controller in one process, the controller on
 * `controllerPort`), its log under `<dataDir>/kafka`, formatted when new (a restart keeps it); topics are
 * created on first use with one partition. The address is the bootstrap server, host:port.
 */
export async function startKafka(options: ServerOptions & { controllerPort: number }): Promise<EmbeddedServer> {
  const home = toolPaths().kafka;
  const state = path.join(options.dataDir, 'kafka');
  const properties = await writeConfig(state, 'server.properties', [
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@${HOST}:${options.controllerPort}`,
    `listeners=PLAINTEXT://${HOST}:${options.port},CONTROLLER://${HOST}:${options.controllerPort}`,
    `advertised.listeners=PLAINTEXT://${HOST}:${options.port}`,
    'controller.listener.names=CONTROLLER',
    'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
    'inter.broker.listener.name=PLAINTEXT',
    `log.dirs=${path.join(state, 'log')}`,
    'num.partitions=1',
    'offsets.topic.num.partitions=1',
    // One node: every internal topic with one replica (consumer offsets in one partition, created at once on a group's first use), and no wait for more group members to join.
    'offsets.topic.replication.factor=1',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'share.coordinator.state.topic.replication.factor=1',
    'share.coordinator.state.topic.min.isr=1',
    'group.initial.rebalance.delay.ms=0',
  ]);
  const java = javaArgs(home, ['-Dlog4j2.configurationFile=' + path.join(home, 'log4j2.properties')]);
  if (!existsSync(path.join(state, 'log', 'meta.properties'))) {
    await run('java', [...java, 'kafka.tools.StorageTool', 'format', '-t', kafkaClusterId(), '-c', properties]);
  }
  return startChild('kafka', options, {
    label: `Apache Kafka ${TOOL_VERSIONS.kafka}`,
    command: 'java',
    args: [...java, 'kafka.Kafka', properties],
    address: `${HOST}:${options.port}`,
    readyTimeoutMs: 120_000,
  });
}

/**
 * ElasticMQ, an SQS-compatible server, its queues and messages stored under `<dataDir>/elasticmq` (so
 * that they outlive a restart); queue URLs name `http://127.0.0.1:<port>/000000000000/<queue>`.
 * The address is the endpoint URL for the AWS SDK (any region and credentials: ElasticMQ checks no signature).
 */
export async function startElasticMq(options: ServerOptions): Promise<EmbeddedServer> {
  const home = toolPaths().elasticMq;
  const state = path.join(options.dataDir, 'elasticmq');
  const config = await writeConfig(state, 'elasticmq.conf', [
    'include classpath("application.conf")',
    `node-address { protocol = http, host = "${HOST}", port = ${options.port}, context-path = "" }`,
    `rest-sqs { enabled = true, bind-port = ${options.port}, bind-hostname = "${HOST}", sqs-limits = strict }`,
    'rest-stats { enabled = false }',
    `queues-storage { enabled = true, path = "${path.join(state, 'queues.conf')}" }`,
    `messages-storage { enabled = true, uri = "jdbc:h2:${path.join(state, 'messages')}" }`,
  ]);
  return startChild('elasticmq', options, {
    label: `ElasticMQ ${TOOL_VERSIONS.elasticMq}`,
    command: 'java',
    args: javaArgs(home, [`-Dconfig.file=${config}`]).concat('org.elasticmq.server.Main'),
    address: `http://${HOST}:${options.port}`,
    readyTimeoutMs: 120_000,
  });
}

/**
 * A small heap, one GC thread and the quick compiler only: a test broker carries few messages, on a
 * machine shared with the platform, and most of its CPU goes to starting, which the optimizing compiler only slows.
 */
function javaArgs(home: string, properties: string[]): string[] {
  return ['-Xms64m', '-Xmx512m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', ...properties, '-cp', path.join(home, 'jars', '*')];
}

/** Random, as Kafka makes one: 16 bytes in URL-safe base64, never starting with "-", which the format tool would take for an option. */
export function kafkaClusterId(random: () => Buffer = () => randomBytes(16)): string {
  for (;;) {
    const id = random().toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

/** Writes `lines` as `<dir>/<file>` (the directory made if new), answering the file's path. */
async function writeConfig(dir: string, file: string, lines: string[]): Promise<string> {
  await mkdir(dir, { recursive: true });
  const written = path.join(dir, file);
  await writeFile(written, `${lines.join('\n')}\n`);
  return written;
}
