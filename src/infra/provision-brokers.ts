import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { installMavenJars } from './maven-jars';
import { run } from './run-tool';
import { RABBITMQ_DEBIAN_PACKAGES, TOOL_VERSIONS } from './tools';

/**
 * RabbitMQ and its Erlang from Debian's packages, unpacked into `root` rather than installed: no
 * root needed when apt's lists are current, no service started, no user added, nothing written
 * outside TOOLS_DIR; the same on a developer's machine as on CI's.
 */
export async function provideRabbitMq(root: string, log: (line: string) => void): Promise<void> {
  const work = `${root}.partial-${process.pid}`;
  const debs = path.join(work, 'debs');
  await rm(work, { recursive: true, force: true });
  await mkdir(debs, { recursive: true });
  try {
    await downloadDebianPackages(debs, log);
    for (const deb of await readdir(debs)) await run('dpkg-deb', ['-x', path.join(debs, deb), work]);
    await rm(debs, { recursive: true, force: true });
    await relocateErlang(work);
    await rename(work, root);
  } catch (err) {
    await rm(work, { recursive: true, force: true });
    // Another process got there first (rename refuses a non-empty target): its copy is as good.
    if (existsSync(root)) return;
    throw err;
  }
}

/** The pinned versions; when apt's lists lack them (a fresh machine has none), after one `apt-get update`. */
async function downloadDebianPackages(dir: string, log: (line: string) => void): Promise<void> {
  const pinned = Object.entries(RABBITMQ_DEBIAN_PACKAGES).map(([name, version]) => `${name}=${version}`);
  try {
    await run('apt-get', ['download', ...pinned], { cwd: dir });
    return;
  } catch (err) {
    log(`apt-get download failed (${lastErrorLine(err)}); running apt-get update and trying once more...`);
  }
  const update = ['apt-get', 'update', '-q'];
  const [command, ...args] = process.getuid?.() === 0 ? update : ['sudo', '-n', ...update];
  await run(command, args);
  await run('apt-get', ['download', ...pinned], { cwd: dir });
}

/** Debian's `erl` names /usr/lib/erlang as its root; from where it now lies instead. */
async function relocateErlang(root: string): Promise<void> {
  const erl = path.join(root, 'usr', 'lib', 'erlang', 'bin', 'erl');
  const text = await readFile(erl, 'utf8');
  const fixed = text.replaceAll(/^(\s*)ROOTDIR=\/usr\/lib\/erlang$/gm, '$1ROOTDIR="$(cd "$progdir/.." && pwd)"');
  if (fixed === text) throw new Error(`Erlang's erl script changed: no ROOTDIR=/usr/lib/erlang line in ${erl}`);
  await writeFile(erl, fixed);
}

/** Apache Kafka's broker and its runtime jars, with log4j's slf4j binding so that its warnings reach the log. */
export async function provideKafka(home: string): Promise<void> {
  await installMavenJars(home, [`org.apache.kafka:kafka_2.13:${TOOL_VERSIONS.kafka}`, `org.apache.logging.log4j:log4j-slf4j-impl:${TOOL_VERSIONS.kafkaLog4j}`], {
    'log4j2.properties': {
      // Warnings, and the line that says the broker has started.
      text: [
        'appender.out.type = Console',
        'appender.out.name = STDOUT',
        'appender.out.layout.type = PatternLayout',
        'appender.out.layout.pattern = [%d] %p %m (%c)%n',
        'rootLogger.level = warn',
        'rootLogger.appenderRef.out.ref = STDOUT',
        'logger.started.name = kafka.server.KafkaRaftServer',
        'logger.started.level = info',
        '',
      ].join('\n'),
    },
  });
}

export async function provideElasticMq(home: string): Promise<void> {
  await installMavenJars(home, [`org.elasticmq:elasticmq-server_2.13:${TOOL_VERSIONS.elasticMq}`]);
}

/** apt's own complaint (`E: Version '...' for '...' was not found`), not the command line execFile's message starts with. */
function lastErrorLine(err: unknown): string {
  const stderr = (err as { stderr?: string }).stderr?.trim();
  return stderr ? stderr.split('\n').at(-1)! : String(err);
}
