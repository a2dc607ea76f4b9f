import type { LookupFunction } from 'node:net';
import amqp, { type ChannelModel, type ConfirmChannel } from 'amqplib';
import { createGuardedLookup } from '../src/domain/webhooks/destination-resolver';
import type { RabbitMqConfig } from '../src/domain/webhooks/destination';
import { createConnectionPool } from './broker-connections';
import type { BrokerPublisher, DestinationCheck } from './destination-transports';
import { DELIVERY_TIMEOUT_MS } from './http-sender';

interface RabbitConnection {
  model: ChannelModel;
  /** The confirm channel the publishes share; a new one after the broker closes it (an exchange that does not exist closes it). */
  channel: Promise<ConfirmChannel> | null;
  /** Why the broker last closed the channel: told to the publishes it failed. */
  channelError: string | null;
  /** Message ids the broker returned as unroutable, until their confirm arrives (a return comes before its confirm). */
  returned: Set<string>;
}

/**
 * RabbitMQ (AMQP 0-9-1): each message persistent and `mandatory`, on a confirm channel. Delivered = the broker confirmed it
 * and routed it to a queue; a nack, an unroutable message, or a channel the broker closed (no such exchange) is a failure.
 */
export function createRabbitMqPublisher(check: DestinationCheck): BrokerPublisher {
  // Node passes `family` as a number here, which is what the guarded lookup reads.
  const lookup = createGuardedLookup({ allowPrivate: check.allowPrivateNetworks, lookup: check.lookup }) as unknown as LookupFunction;
  const pool = createConnectionPool<RabbitConnection>({
    async open(target, gone) {
      const config = target.destination.config as RabbitMqConfig;
      const uri = new URL(config.uri);
      const model = await amqp.connect(
        {
          protocol: uri.protocol.slice(0, -1),
          hostname: uri.hostname,
          ...(uri.port && { port: Number(uri.port) }),
          vhost: uri.pathname.length > 1 ? decodeURIComponent(uri.pathname.slice(1)) : '/',
          username: target.credentials.username ?? '',
          password: target.credentials.password ?? '',
          heartbeat: 10,
        },
        { lookup, timeout: DELIVERY_TIMEOUT_MS },
      );
      // Without a listener an 'error' event would end the process; a closed connection leaves the pool.
      model.on('error', () => undefined);
      model.on('close', gone);
      return { model, channel: null, channelError: null, returned: new Set() };
    },
    close: (c) => c.model.close().catch(() => undefined),
  });

  function channelOf(c: RabbitConnection): Promise<ConfirmChannel> {
    if (c.channel) return c.channel;
    const opening = c.model.createConfirmChannel();
    c.channel = opening;
    const forget = () => {
      if (c.channel === opening) c.channel = null;
    };
    opening.then((channel) => {
      c.channelError = null;
      channel.on('error', (err: Error) => (c.channelError = err.message));
      channel.on('close', forget);
      channel.on('return', (message: amqp.Message) => c.returned.add(String(message.properties.messageId)));
    }, forget);
    return opening;
  }

  return {
    publish(message, signal) {
      const config = message.broker.destination.config as RabbitMqConfig;
      return pool.use(message.broker, async (c) => {
        const channel = await channelOf(c);
        signal.throwIfAborted();
        const messageId = String(message.broker.eventId);
        await new Promise<void>((resolve, reject) => {
          const options = {
            persistent: true,
            mandatory: true,
            contentType: 'application/json',
            messageId,
            timestamp: Math.floor(Date.now() / 1000),
            headers: message.headers,
          };
          channel.publish(config.exchange, config.routing_key, Buffer.from(message.body), options, (err: unknown) => {
            if (err) return reject(new Error(c.channelError ?? (err instanceof Error ? err.message : String(err))));
            if (c.returned.delete(messageId)) return reject(new Error(`no queue is bound to exchange "${config.exchange}" for routing key "${config.routing_key}" (returned unroutable)`));
            resolve();
          });
        });
      });
    },
    abandon: (target) => pool.discard(target),
    close: () => pool.close(),
  };
}
