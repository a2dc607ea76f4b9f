/** The request delivered for an event (CONTRACT §4); its body is stored at ingest, so every attempt signs the same bytes. */
import { isEventId } from './event-id';
import { stringifyExact } from './exact-json';
import { isValidEventType } from './event-pattern';

export const WEBHOOK_USER_AGENT = 'devops-platform-webhooks/1.0';

export const WebhookHeader = Object.freeze({
  ContentType: 'Content-Type',
  UserAgent: 'User-Agent',
  Id: 'X-Webhook-ID',
  Type: 'X-Webhook-Type',
  Timestamp: 'X-Webhook-Timestamp',
  Signature: 'X-Webhook-Signature',
  // Standard Webhooks (signature.ts): the id is the event id, the timestamp is the attempt's.
  StandardId: 'webhook-id',
  StandardTimestamp: 'webhook-timestamp',
  StandardSignature: 'webhook-signature',
} as const);

const STANDARD_SIGNATURE_REGEX = /^v1,[A-Za-z0-9+/]{43}=(?: v1,[A-Za-z0-9+/]{43}=)*$/;

export interface DeliveryBodyInput {
  id: number;
  type: string;
  data: Record<string, unknown>;
  /** Unix seconds. */
  timestamp: number;
}

export interface DeliveryHeadersInput {
  id: number;
  type: string;
  /** Unix seconds; must be the body's `timestamp`. */
  timestamp: number;
  /** `sha256=<hex>` from signPayload over the stored body. */
  signature: string;
  /** Unix seconds when this attempt is made (`webhook-timestamp`): a late retry is not stale to its receiver. */
  attemptTimestamp: number;
  /** `v1,<base64>[ v1,<base64>...]` from signStandard over the same id, attemptTimestamp and body. */
  standardSignature: string;
}

/** Spec key order, no whitespace; throws on a disallowed body: stored, it would be delivered wrong forever. */
export function buildDeliveryBody(event: DeliveryBodyInput): string {
  assertEventId(event.id);
  assertEventType(event.type);
  assertTimestamp(event.timestamp);
  if (event.data === null || typeof event.data !== 'object' || Array.isArray(event.data)) {
    throw new TypeError('event data must be a JSON object');
  }
  // A fresh literal fixes the key order and drops any extra fields of the input.
  return stringifyExact({ id: event.id, type: event.type, data: event.data, timestamp: event.timestamp });
}

export function buildDeliveryHeaders(input: DeliveryHeadersInput) {
  assertEventId(input.id);
  assertEventType(input.type); // also guarantees no CR/LF can reach a header value
  assertTimestamp(input.timestamp);
  if (typeof input.signature !== 'string' || !/^sha256=[0-9a-f]{64}$/.test(input.signature)) {
    throw new TypeError('signature must be "sha256=" followed by 64 lowercase hex digits');
  }
  assertTimestamp(input.attemptTimestamp);
  if (typeof input.standardSignature !== 'string' || !STANDARD_SIGNATURE_REGEX.test(input.standardSignature)) {
    throw new TypeError('standard signature must be space-separated "v1,<base64 of 32 bytes>" entries');
  }
  return Object.freeze({
    [WebhookHeader.ContentType]: 'application/json',
    [WebhookHeader.UserAgent]: WEBHOOK_USER_AGENT,
    [WebhookHeader.Id]: String(input.id),
    [WebhookHeader.Type]: input.type,
    [WebhookHeader.Timestamp]: String(input.timestamp),
    [WebhookHeader.Signature]: input.signature,
    [WebhookHeader.StandardId]: String(input.id),
    [WebhookHeader.StandardTimestamp]: String(input.attemptTimestamp),
    [WebhookHeader.StandardSignature]: input.standardSignature,
  });
}

function assertEventId(id: number): void {
  if (!isEventId(id)) throw new TypeError(`event id must be a positive integer, got ${String(id)}`);
}

function assertEventType(type: string): void {
  if (!isValidEventType(type)) throw new TypeError('event type must be 1..256 characters of [A-Za-z0-9_.:-]');
}

function assertTimestamp(timestamp: number): void {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new TypeError(`timestamp must be a non-negative integer of Unix seconds, got ${String(timestamp)}`);
  }
}
