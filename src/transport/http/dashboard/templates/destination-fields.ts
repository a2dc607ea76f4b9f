import { DESTINATION_TYPES, type DestinationType, KAFKA_SASL_MECHANISMS } from '../../../../domain/webhooks/destination';
import type { EndpointView } from '../../../../services/endpoint-service';
import { BROKER_FORMS, type BrokerField, type BrokerInputs, brokerInputName, DESTINATION_CHOICES, DESTINATION_TYPE_LABELS, type DestinationChoice } from '../destination-form';
import { html, SafeHtml } from '../html';
import { NONE } from './format';
import { option } from './layout';

/**
 * The endpoint form's destination: a type choice, then one fieldset per type. dashboard.js shows only the chosen one (and
 * disables the others, so that they are neither checked nor sent); without it every fieldset shows and the choice decides.
 * Credential inputs are password inputs that are never filled in: a value, once sent, is never shown again.
 */
export interface DestinationFieldsForm {
  destination_type?: string;
  url?: string;
  broker?: BrokerInputs;
}

/** On an edit form of a broker endpoint: its type and the credential fields it has, which an empty input keeps. */
export interface StoredCredentials {
  type: DestinationType;
  set: readonly string[];
}

function brokerField(prefix: string, type: DestinationType, field: BrokerField, inputs: BrokerInputs): SafeHtml {
  const name = brokerInputName(type, field);
  const id = `${prefix}${type}-${field.name}`;
  const value = inputs[name] ?? '';
  const optional = field.optional ? html` <span class="muted">(optional)</span>` : html``;
  const hint = field.hint && html`<p class="hint" id="${id}-hint">${field.hint}</p>`;
  const described = field.hint ? html` aria-describedby="${id}-hint"` : html``;
  switch (field.kind) {
    case 'checkbox':
      return html`<div class="field"><label><input id="${id}" name="${name}" type="checkbox" value="on"${value === 'on' ? html` checked` : html``}> ${field.label}</label></div>`;
    case 'sasl':
      return html`<div class="field">
      <label for="${id}">${field.label}</label>
      <select id="${id}" name="${name}">${option('', 'None', value)}${KAFKA_SASL_MECHANISMS.map((m) => option(m, m, value))}</select>
    </div>`;
    case 'lines':
      return html`<div class="field">
      <label for="${id}">${field.label}${optional}</label>
      <textarea id="${id}" name="${name}" rows="2" placeholder="${field.placeholder ?? ''}"${described}>${value}</textarea>${hint}
    </div>`;
    case 'text':
      return html`<div class="field">
      <label for="${id}">${field.label}${optional}</label>
      <input id="${id}" name="${name}" type="text" placeholder="${field.placeholder ?? ''}" value="${value}"${described}>${hint}
    </div>`;
  }
}

/** A credential: a password input, always empty. */
function credentialField(prefix: string, type: DestinationType, field: BrokerField): SafeHtml {
  const id = `${prefix}${type}-${field.name}`;
  return html`<div class="field">
      <label for="${id}">${field.label}${field.optional ? html` <span class="muted">(optional)</span>` : html``}</label>
      <input id="${id}" name="${brokerInputName(type, field)}" type="password" autocomplete="new-password" spellcheck="false" value="">
    </div>`;
}

function credentialsHint(type: DestinationType, stored: StoredCredentials | undefined): string {
  const rule = BROKER_FORMS[type].credentialsHint;
  if (stored?.type !== type) return `${rule} Never shown again once saved.`;
  const set = stored.set.length > 0 ? `Set: ${stored.set.join(', ')}.` : 'None set.';
  return `${set} Leave every credential empty to keep the stored ones; fill them in to replace them all. ${rule}`;
}

export function destinationFields(prefix: string, form: DestinationFieldsForm, stored?: StoredCredentials): SafeHtml {
  const chosen = form.destination_type ?? 'https';
  const inputs = form.broker ?? {};
  const section = (type: DestinationChoice, body: SafeHtml) =>
    html`<fieldset class="stack" data-destination="${type}"><legend>${DESTINATION_TYPE_LABELS[type]}</legend>${body}</fieldset>`;
  return html`<div class="field">
    <label for="${prefix}destination-type">Destination type</label>
    <select id="${prefix}destination-type" name="destination_type" data-destination-choice aria-describedby="${prefix}destination-type-hint">
      ${DESTINATION_CHOICES.map((type) => option(type, DESTINATION_TYPE_LABELS[type], chosen))}
    </select>
    <p class="hint" id="${prefix}destination-type-hint">HTTPS: every delivery is a signed POST to your URL. RabbitMQ, Kafka, SQS: every delivery is published to your broker, signed the same way in its headers.</p>
  </div>
  ${section(
    'https',
    html`<div class="field">
    <label for="${prefix}url">Endpoint URL</label>
    <input id="${prefix}url" name="url" type="url" inputmode="url" placeholder="https://example.com/webhooks" value="${form.url ?? ''}" aria-describedby="${prefix}url-hint">
    <p class="hint" id="${prefix}url-hint">HTTPS only. Every delivery is a signed POST to this address.</p>
  </div>`,
  )}
  ${DESTINATION_TYPES.map((type) =>
    section(
      type,
      html`${BROKER_FORMS[type].config.map((field) => brokerField(prefix, type, field, inputs))}
    <fieldset class="stack"><legend>Credentials</legend>
      <p class="hint">${credentialsHint(type, stored)}</p>
      ${BROKER_FORMS[type].credentials.map((field) => credentialField(prefix, type, field))}
    </fieldset>`,
    ),
  )}`;
}

/** The summary rows of an endpoint's destination: its type, address, a broker's config and which credentials are set (never their values). */
export function destinationSummary(e: EndpointView, address: string): SafeHtml {
  const d = e.destination;
  if (!d) {
    return html`<dt>Destination</dt><dd data-testid="endpoint-type">HTTPS</dd>
    <dt>URL</dt><dd><code data-testid="endpoint-url">${address}</code></dd>`;
  }
  const config = d.config as Record<string, unknown>;
  const shown = (value: unknown) => (Array.isArray(value) ? value.join(', ') : value === null || value === undefined ? 'none' : value === '' ? '""' : String(value));
  return html`<dt>Destination</dt><dd data-testid="endpoint-type">${DESTINATION_TYPE_LABELS[d.type]}</dd>
    <dt>Address</dt><dd><code data-testid="endpoint-url">${address}</code></dd>
    ${BROKER_FORMS[d.type].config.map((field) => html`<dt>${field.label}</dt><dd><code>${shown(config[field.name])}</code></dd>`)}
    <dt>Credentials</dt><dd data-testid="endpoint-credentials">${
      d.credentials_set.length > 0 ? html`${d.credentials_set.join(', ')} set <span class="muted">(values are never shown)</span>` : NONE
    }</dd>`;
}
