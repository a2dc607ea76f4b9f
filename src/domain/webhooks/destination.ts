/**
 * Endpoints that publish to a broker rather than receive an HTTPS POST: the types, their config, the credentials
 * each takes, the rules a destination meets, and the address people see (no credential in it). DNS: destination-resolver.ts.
 */
import { classifyAddress, hostNameFault, parseIpLiteral } from './destination-address';
import type { SecretBox } from './secret-box';

export const DESTINATION_TYPES = ['rabbitmq', 'kafka', 'sqs'] as const;
export type DestinationType = (typeof DESTINATION_TYPES)[number];

export const KAFKA_SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;

export interface RabbitMqConfig {
  /** `amqps://host[:port][/vhost]`, no user name or password (those are credentials). */
  uri: string;
  /** '' is the default exchange (routes by queue name). */
  exchange: string;
  routing_key: string;
}

export interface KafkaConfig {
  /** Bootstrap servers, `host:port`. */
  brokers: string[];
  topic: string;
  tls: boolean;
  /** null: no SASL (and no credentials). */
  sasl_mechanism: (typeof KAFKA_SASL_MECHANISMS)[number] | null;
}

export interface SqsConfig {
  queue_url: string;
  region: string;
}

export type Destination = { type: 'rabbitmq'; config: RabbitMqConfig } | { type: 'kafka'; config: KafkaConfig } | { type: 'sqs'; config: SqsConfig };

/** Credential field → value, opened only where a message is sent. */
export type Credentials = Readonly<Record<string, string>>;

/** The credential fields of each type: `required` must be set (kafka's only with SASL), `optional` may be. */
export const CREDENTIAL_FIELDS = {
  rabbitmq: { required: ['username', 'password'], optional: [] },
  kafka: { required: ['username', 'password'], optional: [] },
  sqs: { required: ['access_key_id', 'secret_access_key'], optional: ['session_token'] },
} as const satisfies Record<DestinationType, { required: readonly string[]; optional: readonly string[] }>;

export type DestinationVerdict =
  /** `hosts`: every host name a send connects to first (each checked by DNS at registration and at every attempt). */
  | { ok: true; hosts: string[] }
  | { ok: false; code: 'invalid_destination' | 'destination_not_allowed'; message: string; path: string };

/**
 * The rules a destination meets beyond its shape. Plaintext (amqp://, Kafka without TLS, http:// queue URLs) and private
 * addresses are for private networks only, so both follow DELIVERY_ALLOW_PRIVATE_NETWORKS (`allowPrivate`).
 */
/** Whether a send authenticates with credentials: every type does but Kafka without SASL. */
export const usesCredentials = (destination: Destination): boolean => destination.type !== 'kafka' || destination.config.sasl_mechanism !== null;

export function checkDestination(destination: Destination, credentialFields: readonly string[], options: { allowPrivate: boolean }): DestinationVerdict {
  const set = new Set(credentialFields);
  const needsCredentials = usesCredentials(destination);
  for (const field of CREDENTIAL_FIELDS[destination.type].required) {
    if (needsCredentials && !set.has(field)) return invalid(`credentials.${field}`, `destination.credentials.${field} is required for a ${destination.type} destination${destination.type === 'kafka' ? ' with SASL' : ''}.`);
  }
  if (!needsCredentials && set.size > 0) return invalid('config.sasl_mechanism', 'destination.credentials are used only with SASL: set config.sasl_mechanism, or send no credentials.');
  const hosts = hostsOf(destination, options.allowPrivate);
  if (!hosts.ok) return hosts;
  for (const host of hosts.hosts) {
    const verdict = !options.allowPrivate && parseIpLiteral(host) ? classifyAddress(host) : null;
    if (verdict && !verdict.allowed) return { ok: false, code: 'destination_not_allowed', path: hosts.path, message: `destination host ${host} is not an allowed destination: ${verdict.reason}.` };
  }
  return { ok: true, hosts: hosts.hosts };
}

function hostsOf(destination: Destination, allowPrivate: boolean): { ok: true; hosts: string[]; path: string } | Extract<DestinationVerdict, { ok: false }> {
  switch (destination.type) {
    case 'rabbitmq': {
      const url = parsedUrl(destination.config.uri);
      const path = 'config.uri';
      if (!url || (url.protocol !== 'amqps:' && url.protocol !== 'amqp:')) return invalid(path, 'destination.config.uri must be an amqps:// URI (amqps://host[:port][/vhost]).');
      if (url.protocol === 'amqp:' && !allowPrivate) return invalid(path, 'destination.config.uri must use amqps:// (TLS): plaintext amqp:// is for private networks only.');
      const rest = checkUrlParts(url, path, 'uri');
      if (rest) return rest;
      if (url.pathname.length > 1 && url.pathname.slice(1).includes('/')) return invalid(path, 'destination.config.uri may name one vhost (its path), percent-encoded.');
      return { ok: true, hosts: [url.hostname], path };
    }
    case 'kafka': {
      const path = 'config.brokers';
      if (!destination.config.tls && !allowPrivate) return invalid('config.tls', 'destination.config.tls must be true: plaintext Kafka is for private networks only.');
      const hosts: string[] = [];
      for (const broker of destination.config.brokers) {
        const url = parsedUrl(`kafka://${broker}`);
        if (!url || url.port === '' || url.host !== broker.toLowerCase() || url.pathname !== '' || url.username !== '') {
          return invalid(path, `destination.config.brokers must be host:port entries; "${broker.slice(0, 64)}" is not.`);
        }
        const problem = hostAndPortProblem(url, path, 'brokers');
        if (problem) return problem;
        hosts.push(url.hostname);
      }
      return { ok: true, hosts: [...new Set(hosts)], path };
    }
    case 'sqs': {
      const url = parsedUrl(destination.config.queue_url);
      const path = 'config.queue_url';
      if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return invalid(path, 'destination.config.queue_url must be an https:// SQS queue URL.');
      if (url.protocol === 'http:' && !allowPrivate) return invalid(path, 'destination.config.queue_url must use https://: plaintext http:// is for private networks only.');
      const rest = checkUrlParts(url, path, 'queue_url');
      if (rest) return rest;
      if (url.pathname.split('/').filter(Boolean).length !== 2) return invalid(path, 'destination.config.queue_url must be a queue URL, https://<host>/<account id>/<queue name>.');
      return { ok: true, hosts: [url.hostname], path };
    }
  }
}

function checkUrlParts(url: URL, path: string, field: string): Extract<DestinationVerdict, { ok: false }> | null {
  if (url.username !== '' || url.password !== '') return invalid(path, `destination.config.${field} must not carry a user name or password: send them in destination.credentials, which are never shown again.`);
  if (url.hostname === '') return invalid(path, `destination.config.${field} must have a host.`);
  if (url.search !== '' || url.hash !== '') return invalid(path, `destination.config.${field} takes no query or fragment.`);
  return hostAndPortProblem(url, path, field);
}

/**
 * Port 0, which no connection reaches; a host an https URL would read as another (the number 2130706433 or 0x7f000001 as
 * an IPv4 address): an amqps:// or kafka:// URL keeps it as written, and a client would look it up as a name, never found;
 * and a name DNS cannot look up, by the rule an endpoint's url keeps (hostNameFault).
 */
function hostAndPortProblem(url: URL, path: string, field: string): Extract<DestinationVerdict, { ok: false }> | null {
  if (url.port === '0') return invalid(path, `destination.config.${field} must not use port 0, which no connection can reach.`);
  const asHttps = URL.canParse(`https://${url.hostname}/`) ? new URL(`https://${url.hostname}/`).hostname : null;
  if (asHttps !== url.hostname.toLowerCase()) {
    return invalid(path, `destination.config.${field} host ${url.hostname.slice(0, 64)} must be a host name or an IP address as usually written${asHttps ? ` (${asHttps})` : ''}.`);
  }
  const badHost = hostNameFault(asHttps);
  if (badHost) return invalid(path, `destination.config.${field} host ${asHttps.slice(0, 64)} is not a valid host name: ${badHost}.`);
  return null;
}

function parsedUrl(raw: string): URL | null {
  // The URL parser strips whitespace and control characters: refused, so what is stored is what was sent.
  if (/[\u0000-\u0020\u007f]/.test(raw) || !URL.canParse(raw)) return null;
  return new URL(raw);
}

const invalid = (path: string, message: string): Extract<DestinationVerdict, { ok: false }> => ({ ok: false, code: 'invalid_destination', message, path });

/** What people see as the destination's address (a delivery's `url`, operational events, the Temporal UI): never a credential. */
export function destinationLabel(destination: Destination): string {
  switch (destination.type) {
    case 'rabbitmq':
      return `${destination.config.uri} exchange "${destination.config.exchange}" routing key "${destination.config.routing_key}"`;
    case 'kafka':
      return `kafka://${destination.config.brokers.join(',')}/${destination.config.topic}`;
    case 'sqs':
      return destination.config.queue_url;
  }
}

/** An SQS FIFO queue's name ends `.fifo`: its messages need a group id and a de-duplication id. */
export function isSqsFifoQueue(queueUrl: string): boolean {
  return queueUrl.endsWith('.fifo');
}

/** Sealed credentials (one JSON object, sealed like signing secrets), opened; throws SecretBoxError under another key. */
export function openCredentials(sealed: string | null, secretBox: Pick<SecretBox, 'open'>): Credentials {
  return sealed === null ? {} : (JSON.parse(secretBox.open(sealed)) as Credentials);
}

/** The hosts a send to a stored (so checked) destination connects to first: checked again at every attempt. */
export function destinationHosts(destination: Destination): string[] {
  switch (destination.type) {
    case 'rabbitmq':
      return [new URL(destination.config.uri).hostname];
    case 'kafka':
      return [...new Set(destination.config.brokers.map((broker) => new URL(`kafka://${broker}`).hostname))];
    case 'sqs':
      return [new URL(destination.config.queue_url).hostname];
  }
}

/** An endpoint is an HTTPS url or a broker destination: one of them is required (the request schema and the service say it alike). */
export const URL_REQUIRED = 'is required unless destination is given';
