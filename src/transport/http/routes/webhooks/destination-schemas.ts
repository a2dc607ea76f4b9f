import { z } from 'zod';
import { DESTINATION_TYPES, KAFKA_SASL_MECHANISMS } from '../../../../domain/webhooks/destination';

/** A broker endpoint's `destination` (docs/destinations.md); rules beyond the shape: domain/webhooks/destination.ts. */

const Address = z.string().min(1).max(2048);
const Name = z.string().max(255);
const Secret = z.string().min(1).max(4096);

const CREDENTIALS_RULE =
  'Write-only: sealed at rest, never returned (responses list the fields set in `credentials_set`), never logged or traced. ' +
  'On PATCH, a destination of the same type sent without `credentials` keeps the stored ones.';

const RabbitMq = z
  .strictObject({
    type: z.literal('rabbitmq'),
    config: z.strictObject({
      uri: Address.describe('AMQP 0-9-1 URI `amqps://host[:port][/vhost]`, without user name or password (`amqp://` only where DELIVERY_ALLOW_PRIVATE_NETWORKS is on).').meta({
        example: 'amqps://mq.example.com/prod',
      }),
      exchange: Name.describe('The exchange each message is published to (it must exist; "" is the default exchange, which routes by queue name).'),
      routing_key: Name.default('').describe('The routing key of every message (default "").'),
    }),
    credentials: z.strictObject({ username: Secret, password: Secret }).partial().optional().describe(`\`username\` and \`password\` (both required). ${CREDENTIALS_RULE}`),
  })
  .describe('Published persistent (delivery mode 2) with publisher confirms: delivered when the broker confirms it.')
  .meta({ id: 'RabbitMqDestination' });

const Kafka = z
  .strictObject({
    type: z.literal('kafka'),
    config: z.strictObject({
      brokers: z.array(z.string().min(1).max(300)).min(1).max(10).describe('Bootstrap servers, `host:port`.').meta({ example: ['kafka-1.example.com:9093'] }),
      topic: z
        .string()
        .regex(/^[A-Za-z0-9._-]{1,249}$/, 'must be 1 to 249 characters of A-Z a-z 0-9 . _ -')
        .describe('The topic every message is produced to (it must exist unless the cluster creates topics on first use).'),
      tls: z.boolean().default(true).describe('TLS to every broker (default true; false only where DELIVERY_ALLOW_PRIVATE_NETWORKS is on).'),
      sasl_mechanism: z.union([z.enum(KAFKA_SASL_MECHANISMS).meta({ id: 'KafkaSaslMechanism' }), z.null()]).default(null).describe('SASL with `credentials.username` and `password`; null (the default): none.'),
    }),
    credentials: z.strictObject({ username: Secret, password: Secret }).partial().optional().describe(`With SASL: \`username\` and \`password\`. ${CREDENTIALS_RULE}`),
  })
  .describe(
    'Produced with acks from all in-sync replicas: delivered when they have it. The message key is the event id, or the endpoint id for a FIFO endpoint (one partition keeps its order).',
  )
  .meta({ id: 'KafkaDestination' });

const Sqs = z
  .strictObject({
    type: z.literal('sqs'),
    config: z.strictObject({
      queue_url: Address.describe('The queue URL, `https://sqs.<region>.amazonaws.com/<account id>/<queue name>` (a name ending `.fifo` is a FIFO queue).').meta({
        example: 'https://sqs.eu-west-1.amazonaws.com/123456789012/orders',
      }),
      region: z.string().regex(/^[a-z]{2}(?:-[a-z]+)+-\d{1,2}$/, 'must be an AWS region such as eu-west-1').describe('The queue\'s AWS region.'),
    }),
    credentials: z
      .strictObject({ access_key_id: Secret, secret_access_key: Secret, session_token: Secret })
      .partial()
      .optional()
      .describe(`\`access_key_id\` and \`secret_access_key\` (required), \`session_token\` (optional). ${CREDENTIALS_RULE}`),
  })
  .describe('Sent with SendMessage: delivered when SQS has accepted it. A FIFO queue gets the endpoint id as message group and the event id as de-duplication id.')
  .meta({ id: 'SqsDestination' });

export const DestinationInput = z
  .discriminatedUnion('type', [RabbitMq, Kafka, Sqs])
  .describe('Instead of `url`: the endpoint publishes each delivery to a broker (docs/destinations.md). An endpoint has `url` or `destination`, never both.')
  .meta({ id: 'DestinationRequest' });

export const DestinationView = z
  .object({
    type: z.enum(DESTINATION_TYPES).meta({ id: 'DestinationType' }),
    config: z.record(z.string(), z.unknown()).describe('As registered, defaults filled in.').meta({ id: 'DestinationConfig' }),
    credentials_set: z.array(z.string()).describe('The credential fields stored (sorted); their values are never returned.'),
  })
  .describe("A broker endpoint's destination; null for an HTTPS endpoint.")
  .meta({ id: 'Destination' });
