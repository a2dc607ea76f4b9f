import { createRecoveryActivities } from '../../../activities/recovery-activities';
import type { ErrorCode } from '../../../src/domain/error-codes';
import { DomainError } from '../../../src/domain/errors';

const target = { accountId: 'acct_1', eventId: 7, endpointId: 'ep_1' };
const refusing = (code: ErrorCode) => createRecoveryActivities({ retry: async () => Promise.reject(new DomainError(code, 'refused')) });

describe('bulk recovery: one new round per delivery, by the manual retry', () => {
  it('starts a round when the retry does', async () => {
    await expect(createRecoveryActivities({ retry: async () => undefined }).startDeliveryRound(target)).resolves.toBe('started');
  });

  it.each<ErrorCode>(['delivery_in_flight', 'delivery_not_retryable', 'delivery_round_limit', 'endpoint_deleted', 'endpoint_disabled', 'endpoint_tenant_changed', 'not_found'])(
    'skips a delivery the retry refuses with %s (it would be refused on every try)',
    async (code) => {
      await expect(refusing(code).startDeliveryRound(target)).resolves.toBe('skipped');
    },
  );

  it('fails on any other error, so that Temporal tries the activity again', async () => {
    await expect(refusing('service_unavailable').startDeliveryRound(target)).rejects.toMatchObject({ code: 'service_unavailable' });
  });
});
