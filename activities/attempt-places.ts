import type { Clock } from '../src/domain/clock';
import { deliveryId } from '../src/domain/webhooks/delivery-id';
import { refusalMessage, type EndpointLimits } from '../src/domain/webhooks/endpoint-limits';
import type { ThrottleLimit } from '../src/infra/metrics';
import { activityAttempt } from './activity-context';
import type { AttemptInput, DeliveryActivityDeps } from './delivery-activities';

/** A quick receiver frees a place within it, a hung one does not. Not at once: a timer and a workflow task per throttled attempt cost deliveries (bench:delivery, BENCHMARKS.md). */
const THROTTLE_WAIT_MS = 250;

/** No place free in time: the attempt comes back after `delayMs` (the same attempt), holding nothing meanwhile. */
export interface Throttle {
  limit: ThrottleLimit;
  message: string;
  delayMs: number;
}

/** The attempt's places, held through its send until `leave`; or the wait for them. */
export type Places = { leave: () => Promise<void> } | { throttled: Throttle };

export type PlacesDeps = Pick<DeliveryActivityDeps, 'slots' | 'limiter' | 'lags'> & { clock: Clock };

/** Places for an attempt's send: among its account's and endpoint's attempts in this process, then within the endpoint's own limits (none: no cost). */
export function createAttemptPlaces(deps: PlacesDeps) {
  return {
    async enter(input: AttemptInput, limits: EndpointLimits | null): Promise<Places> {
      const delivery = deliveryId(input.eventId, input.endpointId);
      const leaveSlot = await deps.slots.enter(input.accountId, input.endpointId, THROTTLE_WAIT_MS, delivery);
      // A limited endpoint's retried try may have waited for its own limits: not the platform's lateness, so not counted.
      const countsLag = input.round === 1 && input.attempt === 1 && input.acceptedAt !== undefined && !(limits !== null && activityAttempt() > 1);
      if (countsLag) deps.lags.record(input.accountId, deps.clock().getTime() - (input.acceptedAt as number));
      if (!leaveSlot) {
        const inFlight = deps.slots.inFlight(input.accountId);
        const message = `Account ${input.accountId} has ${inFlight} attempts in flight in this process (or its endpoint ${input.endpointId} its most): attempt ${input.attempt} waits its turn.`;
        return { throttled: { limit: 'places', message, delayMs: deps.slots.throttle(input.accountId, delivery, activityAttempt(), Math.random()) } };
      }
      if (!limits) return { leave: async () => leaveSlot() };
      const entered = await deps.limiter.enter(input.endpointId, limits, delivery, activityAttempt()).catch((err: unknown) => {
        leaveSlot();
        throw err;
      });
      if ('refused' in entered) {
        leaveSlot();
        const message = `Endpoint ${input.endpointId} ${refusalMessage(entered.refused, limits)}: attempt ${input.attempt} waits its turn.`;
        return { throttled: { limit: 'endpoint_limits', message, delayMs: entered.waitMs } };
      }
      return {
        leave: async () => {
          leaveSlot();
          await entered.leave();
        },
      };
    },
  };
}
