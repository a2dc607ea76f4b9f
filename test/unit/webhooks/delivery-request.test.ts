import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifySync } from '../../../receivers/typescript/src/node';
import { WEBHOOK_USER_AGENT, buildDeliveryBody, buildDeliveryHeaders } from '../../../src/domain/webhooks/delivery-request';
import { signPayload } from '../../../src/domain/webhooks/signature';

const EVENT = { id: 17, type: 'user.created', data: { name: 'Ada', nested: { a: [1, 2] } }, timestamp: 1_700_000_000 };
const SIGNATURE = `sha256=${'ab'.repeat(32)}`;
const STANDARD = { attemptTimestamp: 1_700_000_060, standardSignature: `v1,${'A'.repeat(43)}=` };

describe('buildDeliveryBody', () => {
  it('is exactly {"id","type","data","timestamp"} in that key order, without whitespace', () => {
    expect(buildDeliveryBody(EVENT)).toBe(
      '{"id":17,"type":"user.created","data":{"name":"Ada","nested":{"a":[1,2]}},"timestamp":1700000000}',
    );
  });

  it('keeps the documented key order whatever the input order', () => {
    const body = buildDeliveryBody({ timestamp: 5, data: {}, type: 't', id: 1 });
    expect(Object.keys(JSON.parse(body))).toEqual(['id', 'type', 'data', 'timestamp']);
  });

  it('drops fields other than the four of the spec', () => {
    const body = buildDeliveryBody({ ...EVENT, idempotency_key: 'k', account_id: 'acc' } as typeof EVENT);
    expect(Object.keys(JSON.parse(body))).toEqual(['id', 'type', 'data', 'timestamp']);
  });

  it('delivers data unchanged', () => {
    const data = { unicode: 'é✓', zero: 0, nil: null, list: [true, { x: 'y' }], deep: { a: { b: { c: 1.5 } } } };
    expect(JSON.parse(buildDeliveryBody({ ...EVENT, data })).data).toEqual(data);
  });

  it('produces identical bytes on every call (stable across attempts)', () => {
    expect(buildDeliveryBody(EVENT)).toBe(buildDeliveryBody({ ...EVENT, data: JSON.parse(JSON.stringify(EVENT.data)) }));
  });

  it.each([
    ['an array', []],
    ['null', null],
    ['a string', 'x'],
  ])('refuses data that is %s', (_label, data) => {
    expect(() => buildDeliveryBody({ ...EVENT, data: data as unknown as Record<string, unknown> })).toThrow(TypeError);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses the event id %p', (id) => {
    expect(() => buildDeliveryBody({ ...EVENT, id })).toThrow(TypeError);
  });

  it.each([1.5, -1, Number.NaN])('refuses the timestamp %p', (timestamp) => {
    expect(() => buildDeliveryBody({ ...EVENT, timestamp })).toThrow(TypeError);
  });

  it('refuses an invalid event type', () => {
    expect(() => buildDeliveryBody({ ...EVENT, type: 'bad type' })).toThrow(TypeError);
  });
});

describe('buildDeliveryHeaders', () => {
  it('carries Content-Type, User-Agent, the four X-Webhook headers of the spec and the three Standard Webhooks headers', () => {
    expect(buildDeliveryHeaders({ id: 17, type: 'user.created', timestamp: 1_700_000_000, signature: SIGNATURE, ...STANDARD })).toEqual({
      'Content-Type': 'application/json',
      'User-Agent': WEBHOOK_USER_AGENT,
      'X-Webhook-ID': '17',
      'X-Webhook-Type': 'user.created',
      'X-Webhook-Timestamp': '1700000000',
      'X-Webhook-Signature': SIGNATURE,
      'webhook-id': '17',
      'webhook-timestamp': '1700000060',
      'webhook-signature': STANDARD.standardSignature,
    });
  });

  it('carries every standard signature entry, space-separated', () => {
    const standardSignature = `${STANDARD.standardSignature} v1,${'B'.repeat(43)}=`;
    expect(buildDeliveryHeaders({ ...EVENT, signature: SIGNATURE, ...STANDARD, standardSignature })['webhook-signature']).toBe(standardSignature);
  });

  it.each(['', 'v1,', `v2,${'A'.repeat(43)}=`, `v1,${'A'.repeat(43)}= `, `v1,${'A'.repeat(43)}=\r\nX-Evil: 1`])('refuses the standard signature %j', (standardSignature) => {
    expect(() => buildDeliveryHeaders({ ...EVENT, signature: SIGNATURE, ...STANDARD, standardSignature })).toThrow(TypeError);
  });

  it('has a product User-Agent', () => {
    expect(WEBHOOK_USER_AGENT).toMatch(/^[\w.-]+\/\d+(\.\d+)*$/);
  });

  it('sends the body timestamp as X-Webhook-Timestamp and the body id as X-Webhook-ID', () => {
    const body = buildDeliveryBody(EVENT);
    const parsed = JSON.parse(body);
    const headers = buildDeliveryHeaders({ ...EVENT, signature: signPayload('whsec_x', body), ...STANDARD });
    expect(headers['X-Webhook-Timestamp']).toBe(String(parsed.timestamp));
    expect(headers['X-Webhook-ID']).toBe(String(parsed.id));
  });

  it('carries a signature a receiver can verify over the built body', () => {
    const body = buildDeliveryBody(EVENT);
    const headers = buildDeliveryHeaders({ ...EVENT, signature: signPayload('whsec_x', body), ...STANDARD });
    expect(verifySync(body, headers, { secrets: 'whsec_x', scheme: 'spec' }).id).toBe('17');
  });

  it('refuses a type that could inject a header line', () => {
    expect(() => buildDeliveryHeaders({ id: 1, type: 'a\r\nX-Evil: 1', timestamp: 1, signature: SIGNATURE, ...STANDARD })).toThrow(TypeError);
  });

  it.each(['', 'sha256=', 'abc', `sha1=${'ab'.repeat(32)}`, `sha256=${'AB'.repeat(32)}`])('refuses the signature %j', (signature) => {
    expect(() => buildDeliveryHeaders({ id: 1, type: 't', timestamp: 1, signature, ...STANDARD })).toThrow(TypeError);
  });

  it('refuses an invalid id or timestamp', () => {
    expect(() => buildDeliveryHeaders({ id: 0, type: 't', timestamp: 1, signature: SIGNATURE, ...STANDARD })).toThrow(TypeError);
    expect(() => buildDeliveryHeaders({ id: 1, type: 't', timestamp: 1.5, signature: SIGNATURE, ...STANDARD })).toThrow(TypeError);
  });

  it('returns a frozen object', () => {
    expect(Object.isFrozen(buildDeliveryHeaders({ id: 1, type: 't', timestamp: 1, signature: SIGNATURE, ...STANDARD }))).toBe(true);
  });

  it('imports no Node module (workflow-safe)', () => {
    const source = readFileSync(join(__dirname, '../../../src/domain/webhooks/delivery-request.ts'), 'utf8');
    expect(source).not.toMatch(/from 'node:|require\(/);
  });
});
