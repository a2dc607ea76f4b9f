import { randomBytes } from 'node:crypto';
import { createDeliveryActivities, type AttemptInput } from '../../../activities/delivery-activities';
import type { Transport } from '../../../activities/transport';
import { createSecretBox } from '../../../src/domain/webhooks/secret-box';
import { generateSigningSecret, signPayload, signStandard } from '../../../src/domain/webhooks/signature';
import type { Deliveries } from '../../../src/persistence/deliveries';
import type { EndpointDoc, Endpoints } from '../../../src/persistence/endpoints';
import type { Events } from '../../../src/persistence/events';
import { endpointDoc } from '../../support/endpoint-doc';
import { idleDeliveryDeps } from '../../support/delivery-deps';

/** What an attempt signs with: the current secret, and those still in their rotation grace at the attempt's time. */
describe('delivery attempt: signatures', () => {
  const secretBox = createSecretBox(randomBytes(32));
  const [current, inGrace, expired] = [generateSigningSecret(), generateSigningSecret(), generateSigningSecret()];
  const now = new Date('2026-03-01T12:00:00.750Z');
  const endpoint = endpointDoc(secretBox.seal(current), {
    previous_secrets: [
      { sealed: secretBox.seal(inGrace), expires_at: new Date(now.getTime() + 1) },
      { sealed: secretBox.seal(expired), expires_at: now },
    ],
  });
  const body = '{"id":7,"type":"a.b","data":{},"timestamp":1700000000}';
  const input: AttemptInput = { eventId: 7, endpointId: 'ep_1', accountId: 'acct_1', round: 1, attempt: 3, type: 'a.b', timestamp: 1_700_000_000, body };

  async function headersSent(doc: EndpointDoc): Promise<Record<string, string>> {
    let headers: Record<string, string> = {};
    const sender: Transport = {
      async send(req) {
        headers = req.headers;
        return { outcome: { kind: 'status', statusCode: 200 }, responseBody: 'ok', error: null, durationMs: 5 };
      },
      async close() {},
    };
    const a = createDeliveryActivities({
      ...idleDeliveryDeps(),
      endpoints: { find: async () => doc } as unknown as Endpoints,
      // Every attempt checks that its event was accepted with this body, a third one too.
      events: { findUnscoped: async () => ({ _id: 7, account_id: 'acct_1', endpoint_ids: ['ep_1'], type: 'a.b', timestamp: 1_700_000_000, body }) } as unknown as Events,
      deliveries: { recordAttempt: async () => undefined, setState: async () => undefined } as unknown as Deliveries,
      secretBox,
      sender,
      endpointHealth: { record: async () => ({ consecutive_failures: 0 }) as never },
      autoDisable: { afterMs: 1, disable: async () => undefined },
      clock: () => now,
    });
    await a.attemptDelivery({ ...input, mayRepeat: false });
    return headers;
  }

  it("webhook-timestamp is the attempt's time and webhook-id the event id; the X-Webhook headers keep the event's", async () => {
    const headers = await headersSent(endpoint);
    expect(headers['webhook-id']).toBe('7');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(headers['X-Webhook-Timestamp']).toBe('1700000000');
  });

  it('webhook-signature has one entry per secret alive, newest first; an expired secret signs nothing', async () => {
    const headers = await headersSent(endpoint);
    expect(headers['webhook-signature']).toBe(signStandard([current, inGrace], '7', Math.floor(now.getTime() / 1000), body));
  });

  it('X-Webhook-Signature is signed with the current secret only', async () => {
    expect((await headersSent(endpoint))['X-Webhook-Signature']).toBe(signPayload(current, body));
  });

  it('an endpoint never rotated signs with its one secret', async () => {
    const { previous_secrets: _, ...never } = endpoint;
    expect((await headersSent(never))['webhook-signature']).toBe(signStandard([current], '7', Math.floor(now.getTime() / 1000), body));
  });
});
