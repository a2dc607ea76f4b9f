import type { Context } from 'koa';
import { DESTINATION_TYPES, type DestinationType } from '../../../domain/webhooks/destination';
import { ValidationError } from '../../../domain/errors';
import { parseInput } from '../route';
import { EndpointCreateFields } from '../routes/webhooks/schemas';
import { formField } from './render';

/**
 * The endpoint form's destination: HTTPS (the url) or a broker type with its config and credentials, read as the API's
 * `destination` and checked by the API's own schema. Credentials are read only here, straight from the request: they are
 * never kept in the form that is shown again after a refusal.
 */

export const DESTINATION_CHOICES = ['https', ...DESTINATION_TYPES] as const;
export type DestinationChoice = (typeof DESTINATION_CHOICES)[number];

export const DESTINATION_TYPE_LABELS: Record<DestinationChoice, string> = { https: 'HTTPS', rabbitmq: 'RabbitMQ', kafka: 'Kafka', sqs: 'SQS' };

/** `text` as typed; `lines` one entry per line (commas tolerated); `checkbox` a boolean; `sasl` a mechanism or none. */
export type BrokerFieldKind = 'text' | 'lines' | 'checkbox' | 'sasl';

export interface BrokerField {
  /** The API's field in `config` or `credentials`; the input is named `<type>_<name>`. */
  name: string;
  label: string;
  kind: BrokerFieldKind;
  hint?: string;
  placeholder?: string;
  /** May be left empty (its default applies). */
  optional?: boolean;
}

export interface BrokerForm {
  config: BrokerField[];
  /** Always password inputs, never filled in. */
  credentials: BrokerField[];
  credentialsHint: string;
}

const secret = (name: string, label: string, optional = false): BrokerField => ({ name, label, kind: 'text', optional });

export const BROKER_FORMS: Record<DestinationType, BrokerForm> = {
  rabbitmq: {
    config: [
      { name: 'uri', label: 'AMQP URI', kind: 'text', placeholder: 'amqps://mq.example.com/prod', hint: 'amqps://host[:port][/vhost], without user name or password.' },
      { name: 'exchange', label: 'Exchange', kind: 'text', optional: true, hint: 'It must exist. Empty: the default exchange, which routes by queue name.' },
      { name: 'routing_key', label: 'Routing key', kind: 'text', optional: true },
    ],
    credentials: [secret('username', 'User name'), secret('password', 'Password')],
    credentialsHint: 'Both required.',
  },
  kafka: {
    config: [
      { name: 'brokers', label: 'Bootstrap servers', kind: 'lines', placeholder: 'kafka-1.example.com:9093', hint: 'host:port, one per line (up to 10).' },
      { name: 'topic', label: 'Topic', kind: 'text', hint: 'It must exist.' },
      { name: 'tls', label: 'TLS to every broker', kind: 'checkbox' },
      { name: 'sasl_mechanism', label: 'SASL mechanism', kind: 'sasl' },
    ],
    credentials: [secret('username', 'SASL user name', true), secret('password', 'SASL password', true)],
    credentialsHint: 'Both required with SASL, none without it.',
  },
  sqs: {
    config: [
      { name: 'queue_url', label: 'Queue URL', kind: 'text', placeholder: 'https://sqs.eu-west-1.amazonaws.com/123456789012/orders', hint: 'A name ending .fifo is a FIFO queue.' },
      { name: 'region', label: 'Region', kind: 'text', placeholder: 'eu-west-1' },
    ],
    credentials: [secret('access_key_id', 'Access key ID'), secret('secret_access_key', 'Secret access key'), secret('session_token', 'Session token', true)],
    credentialsHint: 'An access key allowed sqs:SendMessage on the queue; the session token only for temporary credentials.',
  },
};

export const brokerInputName = (type: DestinationType, field: BrokerField) => `${type}_${field.name}`;

/** The config inputs of every broker type, by input name, as typed (a checked checkbox is `on`); no credential. */
export type BrokerInputs = Record<string, string>;

export function isDestinationChoice(value: string): value is DestinationChoice {
  return (DESTINATION_CHOICES as readonly string[]).includes(value);
}

/** The config inputs as sent: every type's, so that switching type back shows what was typed. */
export function readBrokerInputs(ctx: Context): BrokerInputs {
  const inputs: BrokerInputs = {};
  for (const type of DESTINATION_TYPES) {
    for (const field of BROKER_FORMS[type].config) inputs[brokerInputName(type, field)] = formField(ctx, brokerInputName(type, field));
  }
  return inputs;
}

/** A new form's inputs: the API's defaults (Kafka over TLS). */
export const DEFAULT_BROKER_INPUTS: BrokerInputs = { kafka_tls: 'on' };

/** A stored destination's config as the form's inputs (credentials are never shown, so never filled in). */
export function brokerInputsOf(type: DestinationType, config: Record<string, unknown>): BrokerInputs {
  const inputs: BrokerInputs = { ...DEFAULT_BROKER_INPUTS };
  for (const field of BROKER_FORMS[type].config) {
    const value = config[field.name];
    inputs[brokerInputName(type, field)] = Array.isArray(value) ? value.join('\n') : value === true ? 'on' : value === false || value == null ? '' : String(value);
  }
  return inputs;
}

function configValue(field: BrokerField, raw: string): unknown {
  switch (field.kind) {
    case 'text':
      return raw.trim();
    case 'lines':
      return raw
        .split(/[\n\r,]+/)
        .map((entry) => entry.trim())
        .filter((entry) => entry.length > 0);
    case 'checkbox':
      return raw === 'on';
    case 'sasl':
      return raw === '' ? null : raw;
  }
}

const DestinationBody = EndpointCreateFields.pick({ destination: true });

/**
 * The API's `destination` from the form, checked by its schema (the same refusals in the same words). Credential inputs
 * left empty are not sent: on a change of the same type, the stored credentials are kept, as on PATCH.
 */
export function destinationFromForm(ctx: Context, type: DestinationType, inputs: BrokerInputs) {
  const form = BROKER_FORMS[type];
  const config = Object.fromEntries(form.config.map((field) => [field.name, configValue(field, inputs[brokerInputName(type, field)] ?? '')]));
  const credentials = Object.fromEntries(
    form.credentials.map((field) => [field.name, formField(ctx, brokerInputName(type, field))] as const).filter(([, value]) => value !== ''),
  );
  const body = { destination: { type, config, ...(Object.keys(credentials).length > 0 && { credentials }) } };
  const parsed = parseInput(DestinationBody, body, 'body').destination;
  if (!parsed) throw new ValidationError('Choose a destination type.', [{ path: 'destination_type', message: 'Required' }]);
  return parsed;
}
