/**
 * The receiver libraries' test vectors (receivers/test-vectors.json, `npm run vectors`).
 * Every request is what an attempt sends: built by buildDeliveryBody/buildDeliveryHeaders and
 * signed by signPayload/signStandard. Secrets are fixed (derived from names) so the file is stable.
 */
import { createHash } from 'node:crypto';
import { buildDeliveryBody, buildDeliveryHeaders, DeliveryBodyInput } from '../../src/domain/webhooks/delivery-request';
import { signPayload, signStandard } from '../../src/domain/webhooks/signature';
// Types only: the receiver library declares the codes and the vector's shape; it must not depend on the platform.
import type { VerificationErrorCode } from '../../receivers/typescript/src/core';
import type { TestVector } from '../../receivers/typescript/test/vector';

const secret = (name: string, bytes = 32) => `whsec_${createHash('sha512').update(name).digest().subarray(0, bytes).toString('base64')}`;
const [S1, S2, S3] = [secret('vector secret one'), secret('vector secret two', 24), secret('vector secret three', 64)];
const OTHER = secret('a secret nobody signed with');

const EVENT: DeliveryBodyInput = { id: 1234, type: 'order.created', data: { order: 'ord_7', total: 12.5, lines: [1, 2] }, timestamp: 1_700_000_000 };
const ATTEMPT_AT = 1_700_000_100;
const NOW = ATTEMPT_AT + 10;

/** The headers and body one attempt sends while `signing` (newest first) are alive. */
function attempt(signing: string[], event: DeliveryBodyInput = EVENT, attemptAt = ATTEMPT_AT): { headers: Record<string, string>; body: string } {
  const body = buildDeliveryBody(event);
  const headers = buildDeliveryHeaders({
    id: event.id,
    type: event.type,
    timestamp: event.timestamp,
    signature: signPayload(signing[0] as string, body),
    attemptTimestamp: attemptAt,
    standardSignature: signStandard(signing, String(event.id), attemptAt, body),
  });
  return { headers: { ...headers }, body };
}

const ok = (eventId: number | null = EVENT.id) => ({ valid: true as const, event_id: eventId });
const fails = (error: VerificationErrorCode) => ({ valid: false as const, error });

function withHeaders(base: { headers: Record<string, string>; body: string }, change: Record<string, string | null>) {
  const headers = { ...base.headers };
  for (const [name, value] of Object.entries(change)) {
    if (value === null) delete headers[name];
    else headers[name] = value;
  }
  return { headers, body: base.body };
}

export function buildTestVectors() {
  const one = attempt([S1]);
  const v: TestVector[] = [];
  const both = (name: string, req: { headers: Record<string, string>; body: string }, secrets: string[], standard: TestVector['expected'], spec: TestVector['expected'], extra: Partial<TestVector> = {}) => {
    v.push({ name: `${name} (standard)`, scheme: 'standard', secrets, ...req, now: NOW, ...extra, expected: standard });
    v.push({ name: `${name} (spec)`, scheme: 'spec', secrets, ...req, now: NOW, ...extra, expected: spec });
  };

  both('a delivery verifies', one, [S1], ok(), ok());
  both('header names in lower case verify', { headers: Object.fromEntries(Object.entries(one.headers).map(([k, x]) => [k.toLowerCase(), x])), body: one.body }, [S1], ok(), ok());
  both('a receiver holding several secrets, one right', one, [OTHER, S1], ok(), ok());
  both('the wrong secret', one, [OTHER], fails('no_matching_signature'), fails('no_matching_signature'));
  both('a 24-byte secret', attempt([S2]), [S2], ok(), ok());
  both('a 64-byte secret', attempt([S3]), [S3], ok(), ok());

  // Rotation: newest first in webhook-signature; X-Webhook-Signature only the newest.
  const two = attempt([S2, S1]);
  both('rotation with two secrets, receiver holds the new one', two, [S2], ok(), ok());
  both('rotation with two secrets, receiver holds only the old one', two, [S1], ok(), fails('no_matching_signature'));
  const three = attempt([S3, S2, S1]);
  both('rotation with three secrets, receiver holds the oldest', three, [S1], ok(), fails('no_matching_signature'));
  both('rotation with three secrets, receiver holds the middle one', three, [S2], ok(), fails('no_matching_signature'));
  both('rotation with three secrets, receiver holds none of them', three, [OTHER], fails('no_matching_signature'), fails('no_matching_signature'));
  both('an unknown signature version beside a valid v1 entry', withHeaders(one, { 'webhook-signature': `v2,${'A'.repeat(43)}= ${one.headers['webhook-signature']}` }), [S1], ok(), ok());

  // Tampering.
  both('tampered body', { headers: one.headers, body: one.body.replace('ord_7', 'ord_8') }, [S1], fails('no_matching_signature'), fails('no_matching_signature'));
  both('tampered webhook-id', withHeaders(one, { 'webhook-id': '1235' }), [S1], fails('no_matching_signature'), ok());
  both('tampered X-Webhook-ID', withHeaders(one, { 'X-Webhook-ID': '1235' }), [S1], fails('header_body_mismatch'), fails('header_body_mismatch'));
  both('tampered webhook-timestamp', withHeaders(one, { 'webhook-timestamp': String(ATTEMPT_AT + 5) }), [S1], fails('no_matching_signature'), ok());
  both('tampered X-Webhook-Timestamp', withHeaders(one, { 'X-Webhook-Timestamp': String(EVENT.timestamp + 5) }), [S1], fails('header_body_mismatch'), fails('header_body_mismatch'));
  both('tampered X-Webhook-Type', withHeaders(one, { 'X-Webhook-Type': 'order.refunded' }), [S1], fails('header_body_mismatch'), fails('header_body_mismatch'));
  const otherEvent = attempt([S1], { ...EVENT, id: 99 });
  both('webhook-id and signature of another delivery', withHeaders(one, { 'webhook-id': '99', 'webhook-signature': otherEvent.headers['webhook-signature'] as string }), [S1], fails('no_matching_signature'), ok());

  // Time: webhook-timestamp is the attempt's; X-Webhook-Timestamp is the event's and only checked for the future.
  both('replayed 6 minutes later', one, [S1], fails('timestamp_too_old'), ok(), { now: ATTEMPT_AT + 360 });
  both('just stale (301 s)', one, [S1], fails('timestamp_too_old'), ok(), { now: ATTEMPT_AT + 301 });
  both('at the edge of the tolerance (300 s)', one, [S1], ok(), ok(), { now: ATTEMPT_AT + 300 });
  both('from the future (301 s)', one, [S1], fails('timestamp_too_new'), ok(), { now: ATTEMPT_AT - 301 });
  both('6 minutes old with a tolerance of 10 minutes', one, [S1], ok(), ok(), { now: ATTEMPT_AT + 360, tolerance_seconds: 600 });
  both('a late retry: event an hour old, attempt now', attempt([S1], EVENT, EVENT.timestamp + 3600), [S1], ok(), ok(), { now: EVENT.timestamp + 3601 });
  both('an event timestamp in the future', attempt([S1], { ...EVENT, timestamp: NOW + 3600 }), [S1], ok(), fails('timestamp_too_new'));

  // Malformed headers.
  for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
    v.push({ name: `missing ${name} (standard)`, scheme: 'standard', secrets: [S1], ...withHeaders(one, { [name]: null }), now: NOW, expected: fails('missing_header') });
  }
  for (const name of ['X-Webhook-ID', 'X-Webhook-Type', 'X-Webhook-Timestamp', 'X-Webhook-Signature']) {
    v.push({ name: `missing ${name} (spec)`, scheme: 'spec', secrets: [S1], ...withHeaders(one, { [name]: null }), now: NOW, expected: fails('missing_header') });
  }
  const malformedStandard: [string, Record<string, string>][] = [
    ['webhook-timestamp not a number', { 'webhook-timestamp': 'soon' }],
    ['webhook-timestamp with a fraction', { 'webhook-timestamp': `${ATTEMPT_AT}.5` }],
    ['webhook-signature without a version', { 'webhook-signature': (one.headers['webhook-signature'] as string).slice(3) }],
    ['webhook-signature empty', { 'webhook-signature': '' }],
  ];
  for (const [name, change] of malformedStandard) v.push({ name: `${name} (standard)`, scheme: 'standard', secrets: [S1], ...withHeaders(one, change), now: NOW, expected: fails('malformed_header') });
  v.push({ name: 'webhook-signature with only another version (standard)', scheme: 'standard', secrets: [S1], ...withHeaders(one, { 'webhook-signature': `v2,${'A'.repeat(43)}=` }), now: NOW, expected: fails('no_matching_signature') });
  const sig = one.headers['X-Webhook-Signature'] as string;
  const malformedSpec: [string, Record<string, string>][] = [
    ['X-Webhook-Signature without sha256=', { 'X-Webhook-Signature': sig.slice('sha256='.length) }],
    ['X-Webhook-Signature in upper-case hex', { 'X-Webhook-Signature': `sha256=${sig.slice(7).toUpperCase()}` }],
    ['X-Webhook-Signature too short', { 'X-Webhook-Signature': sig.slice(0, -2) }],
    ['X-Webhook-Timestamp not a number', { 'X-Webhook-Timestamp': 'yesterday' }],
  ];
  for (const [name, change] of malformedSpec) v.push({ name: `${name} (spec)`, scheme: 'spec', secrets: [S1], ...withHeaders(one, change), now: NOW, expected: fails('malformed_header') });

  // Bodies.
  both('a unicode body', attempt([S1], { ...EVENT, data: { name: 'Zoë 日本語 🚀', note: 'naïve café – “quoted”' } }), [S1], ok(), ok());
  both('a large body (100 KiB of data)', attempt([S1], { ...EVENT, data: { blob: 'x0123456789abcdef'.repeat(6 * 1024) } }), [S1], ok(), ok());
  const notJson = 'not json';
  v.push({
    name: 'a signed body that is not a platform event (standard)',
    scheme: 'standard',
    secrets: [S1],
    headers: { 'webhook-id': '1234', 'webhook-timestamp': String(ATTEMPT_AT), 'webhook-signature': signStandard([S1], '1234', ATTEMPT_AT, notJson) },
    body: notJson,
    now: NOW,
    expected: fails('malformed_body'),
  });

  // The Standard Webhooks specification's own example.
  v.push({
    name: 'the published Standard Webhooks vector (standard)',
    scheme: 'standard',
    secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    headers: {
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': signStandard(['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'], 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}'),
    },
    body: '{"test": 2432232314}',
    now: 1614265330,
    check_body: false,
    expected: ok(null),
  });

  return {
    description:
      'Requests as the platform sends them, with what a receiver must conclude. Generated by `npm run vectors` from the platform\'s own signing code; do not edit by hand.',
    default_tolerance_seconds: 300,
    error_codes: ['missing_header', 'malformed_header', 'timestamp_too_old', 'timestamp_too_new', 'no_matching_signature', 'header_body_mismatch', 'malformed_body'] satisfies VerificationErrorCode[],
    vectors: v,
  };
}
