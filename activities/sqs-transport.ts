import type { LookupFunction } from 'node:net';
import http from 'node:http';
import https from 'node:https';
import { SendMessageCommand, SQSClient, type MessageAttributeValue } from '@aws-sdk/client-sqs';
import { createGuardedLookup } from '../src/domain/webhooks/destination-resolver';
import { isSqsFifoQueue, type SqsConfig } from '../src/domain/webhooks/destination';
import { createConnectionPool } from './broker-connections';
import type { BrokerPublisher, DestinationCheck } from './destination-transports';
import { DELIVERY_TIMEOUT_MS } from './http-sender';

/**
 * SQS: SendMessage with the signed headers as message attributes. Delivered = SQS accepted it. A FIFO queue (`.fifo`) gets
 * the endpoint id as message group (one group keeps its order) and the event id as de-duplication id (a repeat within
 * SQS's 5 minutes is dropped by SQS itself). One client per destination, its sockets through the SSRF-checked lookup.
 */
export function createSqsPublisher(check: DestinationCheck): BrokerPublisher {
  // Node passes `family` as a number here, which is what the guarded lookup reads.
  const lookup = createGuardedLookup({ allowPrivate: check.allowPrivateNetworks, lookup: check.lookup }) as unknown as LookupFunction;
  const pool = createConnectionPool<SQSClient>({
    async open(target) {
      const config = target.destination.config as SqsConfig;
      const { access_key_id = '', secret_access_key = '', session_token } = target.credentials;
      const agent: http.AgentOptions = { keepAlive: true, lookup };
      return new SQSClient({
        region: config.region,
        endpoint: new URL(config.queue_url).origin,
        credentials: { accessKeyId: access_key_id, secretAccessKey: secret_access_key, ...(session_token && { sessionToken: session_token }) },
        // The platform's schedule retries; the SDK's own retries would spend the attempt's 30 s.
        maxAttempts: 1,
        requestHandler: { httpAgent: new http.Agent(agent), httpsAgent: new https.Agent(agent), connectionTimeout: 10_000, requestTimeout: DELIVERY_TIMEOUT_MS },
      });
    },
    close: async (client) => client.destroy(),
  });

  return {
    publish(message, signal) {
      const { destination, eventId, endpointId } = message.broker;
      const config = destination.config as SqsConfig;
      const attributes: Record<string, MessageAttributeValue> = {};
      for (const [name, value] of Object.entries(message.headers)) attributes[name] = { DataType: 'String', StringValue: value };
      const fifo = isSqsFifoQueue(config.queue_url);
      const command = new SendMessageCommand({
        QueueUrl: config.queue_url,
        MessageBody: message.body,
        MessageAttributes: attributes,
        ...(fifo && { MessageGroupId: endpointId, MessageDeduplicationId: String(eventId) }),
      });
      return pool.use(message.broker, async (client) => {
        await client.send(command, { abortSignal: signal });
      });
    },
    abandon: (target) => pool.discard(target),
    close: () => pool.close(),
  };
}
