import net, { type LookupFunction } from 'node:net';
import tls from 'node:tls';
import { Kafka, logLevel, type ISocketFactory, type Producer } from 'kafkajs';
import { classifyAddress, parseIpLiteral } from '../src/domain/webhooks/destination-address';
import { createGuardedLookup } from '../src/domain/webhooks/destination-resolver';
import type { KafkaConfig } from '../src/domain/webhooks/destination';
import { createConnectionPool } from './broker-connections';
import type { BrokerPublisher, DestinationCheck } from './destination-transports';
import { DELIVERY_TIMEOUT_MS } from './http-sender';

/** kafkajs's own retries stay well inside the attempt's 30 s: the retry schedule is the platform's. */
const CLIENT_RETRY = { retries: 2, initialRetryTime: 300, maxRetryTime: 3_000 };

/**
 * Kafka: one idle-closed producer per destination, acks from all in-sync replicas, topics never created on first use.
 * The message key is the event id, or the endpoint id for a FIFO endpoint (one key, one partition, its order kept).
 */
export function createKafkaPublisher(check: DestinationCheck): BrokerPublisher {
  const socketFactory = guardedSockets(check);
  const pool = createConnectionPool<Producer>({
    async open(target, gone) {
      const config = target.destination.config as KafkaConfig;
      const { username = '', password = '' } = target.credentials;
      const kafka = new Kafka({
        clientId: 'webhook-delivery',
        brokers: config.brokers,
        ssl: config.tls,
        ...(config.sasl_mechanism && { sasl: { mechanism: config.sasl_mechanism, username, password } as never }),
        socketFactory,
        connectionTimeout: 10_000,
        requestTimeout: DELIVERY_TIMEOUT_MS,
        retry: CLIENT_RETRY,
        // Its log would go to stdout outside the platform's logger; each failure is the attempt's error instead.
        logLevel: logLevel.NOTHING,
      });
      const producer = kafka.producer({ allowAutoTopicCreation: false, retry: CLIENT_RETRY });
      producer.on(producer.events.DISCONNECT, gone);
      try {
        await producer.connect();
      } catch (err) {
        // A broker that accepted the socket and never answered leaves it open: a failed connect closes what it opened.
        await producer.disconnect().catch(() => undefined);
        throw err;
      }
      return producer;
    },
    close: (producer) => producer.disconnect().catch(() => undefined),
  });

  return {
    publish(message, signal) {
      const { destination, eventId, endpointId, fifo } = message.broker;
      const config = destination.config as KafkaConfig;
      return pool.use(message.broker, async (producer) => {
        signal.throwIfAborted();
        await producer.send({
          topic: config.topic,
          acks: -1,
          timeout: DELIVERY_TIMEOUT_MS,
          messages: [{ key: fifo ? endpointId : String(eventId), value: message.body, headers: message.headers }],
        });
      });
    },
    abandon: (target) => pool.discard(target),
    close: () => pool.close(),
  };
}

/** Every broker the cluster names (not only the bootstrap servers) is checked as a url's host is, on each new socket. */
function guardedSockets(check: DestinationCheck): ISocketFactory {
  // Node passes `family` as a number here, which is what the guarded lookup reads.
  const lookup = createGuardedLookup({ allowPrivate: check.allowPrivateNetworks, lookup: check.lookup }) as unknown as LookupFunction;
  return ({ host, port, ssl, onConnect }) => {
    // connect() skips `lookup` for an address literal: checked here.
    const verdict = !check.allowPrivateNetworks && parseIpLiteral(host) ? classifyAddress(host) : null;
    if (verdict && !verdict.allowed) {
      const refused = new net.Socket();
      process.nextTick(() => refused.destroy(Object.assign(new Error(`${host} is not an allowed destination.`), { code: 'EDESTINATIONREFUSED' })));
      return refused;
    }
    const socket = ssl
      ? tls.connect({ host, port, lookup, ...(!net.isIP(host) && { servername: host }), ...(typeof ssl === 'object' && ssl) }, onConnect)
      : net.connect({ host, port, lookup }, onConnect);
    socket.setKeepAlive(true, 60_000);
    return socket;
  };
}
