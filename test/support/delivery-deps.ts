import type { DeliveryActivityDeps } from '../../activities/delivery-activities';
import { AttemptHandOffs } from '../../activities/attempt-hand-off';
import { AttemptHolds } from '../../activities/attempt-holds';
import { AttemptSlots } from '../../src/domain/webhooks/attempt-slots';

/** The deps production always gives delivery activities, as fakes that change nothing: no events, hand-offs or holds, no cache, no valid seal, no limits, default places. */
export function idleDeliveryDeps(): Pick<DeliveryActivityDeps, 'operational' | 'handOffs' | 'holds' | 'enabledEndpoints' | 'acceptanceSeal' | 'slots' | 'limiter' | 'lags'> {
  return {
    operational: { deliveryFailed: async () => undefined },
    handOffs: new AttemptHandOffs(async () => undefined),
    holds: new AttemptHolds(0),
    enabledEndpoints: async () => [],
    acceptanceSeal: { seal: () => '', verify: () => false },
    slots: new AttemptSlots(),
    limiter: { enter: async () => ({ leave: async () => undefined }) },
    lags: { record: () => undefined },
  };
}
