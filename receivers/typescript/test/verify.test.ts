import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { verify, verifyRequest, WebhookVerificationError } from '../src/index';
import { verifySync } from '../src/node';

const SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const BODY = '{"id":5,"type":"a.b","data":{},"timestamp":1700000000}';

function signed(timestamp: number) {
  const sig = createHmac('sha256', Buffer.alloc(32, 9)).update(`5.${timestamp}.${BODY}`).digest('base64');
  return { 'webhook-id': '5', 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${sig}` };
}

describe('verify', () => {
  it('uses the system clock by default', async () => {
    const now = Math.floor(Date.now() / 1000);
    assert.equal((await verify(BODY, signed(now), { secrets: SECRET })).event?.id, 5);
    await assert.rejects(verify(BODY, signed(now - 400), { secrets: SECRET }), { code: 'timestamp_too_old' });
  });

  it("verifies a broker message from its headers map, byte values too (Kafka's)", async () => {
    const headers = Object.fromEntries(Object.entries(signed(1_700_000_000)).map(([name, value]) => [name, Buffer.from(value)]));
    const options = { secrets: SECRET, now: () => 1_700_000_000 };
    assert.equal((await verify(Buffer.from(BODY), headers, options)).event?.id, 5);
    assert.equal(verifySync(Buffer.from(BODY), headers, options).event?.id, 5);
    const tampered = { ...headers, 'webhook-id': Buffer.from('6') };
    await assert.rejects(verify(Buffer.from(BODY), tampered, options), { code: 'no_matching_signature' });
  });

  it('throws a typed error that says which check failed', async () => {
    await assert.rejects(verify(BODY, {}, { secrets: SECRET }), (err: unknown) => err instanceof WebhookVerificationError && err.code === 'missing_header');
  });

  it('refuses parsed JSON in place of the raw body', () => {
    assert.throws(() => verifySync(JSON.parse(BODY), signed(1_700_000_000), { secrets: SECRET, now: () => 1_700_000_000 }), TypeError);
  });

  it('refuses an empty list of secrets', () => {
    assert.throws(() => verifySync(BODY, signed(1_700_000_000), { secrets: [], now: () => 1_700_000_000 }), TypeError);
  });

  it('verifies a Request', async () => {
    const request = new Request('https://example.com/hook', { method: 'POST', headers: signed(1_700_000_000), body: BODY });
    assert.equal((await verifyRequest(request, { secrets: [SECRET], now: () => 1_700_000_000 })).id, '5');
  });
});
