import { destinationHosts, type DestinationType } from '../src/domain/webhooks/destination';
import { type LookupAllFunction, resolveAndCheck } from '../src/domain/webhooks/destination-resolver';
import { ATTR, inSpan } from '../src/infra/tracing/spans';
import { DELIVERY_TIMEOUT_MS } from './http-sender';
import { createKafkaPublisher } from './kafka-transport';
import { createRabbitMqPublisher } from './rabbitmq-transport';
import { createSqsPublisher } from './sqs-transport';
import { failed, type BrokerTarget, type OutgoingMessage, type SendResult, type Transport } from './transport';

/** What a broker's transport does once its hosts are checked: publish within `signal`, answering confirmed or throwing the broker's error. */
export interface BrokerPublisher {
  publish(message: OutgoingMessage & { broker: BrokerTarget }, signal: AbortSignal): Promise<void>;
  /** The publish failed or ran out of time: its connection is dropped (a hung broker keeps no more than the socket being closed). */
  abandon(target: BrokerTarget): void;
  close(): Promise<void>;
}

export interface DestinationCheck {
  allowPrivateNetworks: boolean;
  lookup: LookupAllFunction;
}

/** A publisher per broker type, each with its connections pooled per destination. */
export function brokerPublishers(check: DestinationCheck): Record<DestinationType, BrokerPublisher> {
  return { rabbitmq: createRabbitMqPublisher(check), kafka: createKafkaPublisher(check), sqs: createSqsPublisher(check) };
}

/**
 * The transport chosen per endpoint: a broker endpoint's message by its type's publisher, every other by HTTPS. Each
 * broker publish: its hosts checked as a url's are (SSRF, at every attempt), bounded by the attempt's 30 s, and its error
 * told with no credential in it.
 */
export function createDestinationTransports(https: Transport, publishers: Record<DestinationType, BrokerPublisher>, check: DestinationCheck): Transport {
  const resolveOptions = { allowPrivate: check.allowPrivateNetworks, lookup: check.lookup };
  return {
    async send(message) {
      const broker = message.broker;
      if (!broker) return https.send(message);
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      for (const host of destinationHosts(broker.destination)) {
        const checked = await inSpan('webhook.attempt.ssrf_check', () => ({ 'server.address': host }), async (span) => {
          const verdict = await resolveAndCheck(host, resolveOptions);
          span?.setAttributes({ [ATTR.destinationAllowed]: verdict.ok, ...(!verdict.ok && { [ATTR.destinationRefusal]: verdict.code }) });
          return verdict;
        });
        if (!checked.ok) return failed(checked.code === 'dns_timeout' ? 'timeout' : 'network', checked.message, elapsed());
      }
      const publisher = publishers[broker.destination.type];
      const deadline = AbortSignal.timeout(DELIVERY_TIMEOUT_MS);
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), DELIVERY_TIMEOUT_MS)));
      try {
        const published = publisher.publish(message as OutgoingMessage & { broker: BrokerTarget }, deadline).then(() => 'confirmed' as const);
        // Settled late, it must not surface as an unhandled rejection.
        published.catch(() => undefined);
        if ((await Promise.race([published, timedOut])) === 'timeout') {
          publisher.abandon(broker);
          return failed('timeout', `Timed out: the broker did not confirm the message within ${DELIVERY_TIMEOUT_MS / 1000} s.`, elapsed());
        }
        return { outcome: { kind: 'confirmed' }, responseBody: null, error: null, durationMs: elapsed() };
      } catch (err) {
        // After a refusal the next attempt starts on a new connection: none is kept in a state the broker left it in.
        publisher.abandon(broker);
        return failed('network', withoutCredentials(brokerError(err), broker), elapsed());
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      await Promise.all([https.close(), ...Object.values(publishers).map((p) => p.close())]);
    },
  };
}

/** The broker's own words, first line: an attempt's record is read by people. */
function brokerError(err: unknown): string {
  const e = err as { message?: string; code?: string | number; name?: string };
  const text = (e?.message ?? String(err)).split('\n')[0]?.slice(0, 1000) ?? '';
  return `The broker did not confirm the message: ${text}${e?.code !== undefined && !text.includes(String(e.code)) ? ` (${e.code})` : ''}`;
}

/** No client library is trusted to keep a credential out of its error messages (the longest first; a value too short to tell from words is left). */
function withoutCredentials(text: string, broker: BrokerTarget): string {
  let out = text;
  const values = Object.values(broker.credentials).filter((value) => value.length >= 4);
  for (const value of values.sort((a, b) => b.length - a.length)) out = out.split(value).join('[credential]');
  return out;
}
