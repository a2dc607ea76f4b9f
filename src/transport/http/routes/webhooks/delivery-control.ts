import type { EndpointService } from '../../../../services/endpoint-service';
import { RETRY_NOW_ANSWER_MS, type EventService } from '../../../../services/event-service';
import { json } from '../../responses';
import { oneEndpoint } from './endpoints';
import { oneDelivery } from './events';
import { BulkRetryNow, Endpoint, RetryNowBody } from './schemas';

export function deliveryControlRoutes(control: EventService, pause: EndpointService) {
  return [
    oneDelivery({
      action: 'retry-now',
      summary: 'Make the next attempt of a delivery waiting for a retry now',
      description:
        'A `retrying` delivery waits on a timer for its next attempt; this ends the wait, and the next attempt (the next attempt number) is made at once. ' +
        'If it fails, the schedule goes on from there: the next wait is the one after attempt n+1. Answers 202 with the delivery, its ' +
        '`next_attempt_at` now, once the delivery\'s workflow has taken the request; the attempt\'s outcome shows in `GET /api/v1/webhooks/events/{id}`. ' +
        'Nothing waiting (succeeded, failed, cancelled, an attempt in flight, or `paused`: it waits for its endpoint\'s resume) → 409 `delivery_not_waiting`. ' +
        `No worker took the request within ${RETRY_NOW_ANSWER_MS / 1000} s (every worker down or busy) → 503 \`service_unavailable\`: the attempt may still be made once one does; repeat the call to learn.`,
      accepted: 'The next attempt is being made.',
      answer: (owner, eventId, endpointId) => control.retryNow(owner, eventId, endpointId),
    }),
    oneDelivery({
      action: 'cancel',
      summary: 'Cancel a pending or retrying delivery: no further attempt is made',
      description:
        'The delivery ends `cancelled`, as it does when its endpoint is disabled. An attempt already in flight finishes and is recorded first ' +
        '(if it succeeds, the delivery ends `succeeded`; if it was the last, `failed`). Answers 202 with the delivery as recorded when asked; ' +
        'it shows `cancelled` once its workflow has stopped. Already ended → 409 `delivery_ended`; a cancelled delivery can be started again with `.../retry`.',
      accepted: 'The cancellation is under way.',
      answer: (owner, eventId, endpointId) => control.cancel(owner, eventId, endpointId),
    }),
    oneEndpoint({
      method: 'post',
      path: '/retry-now',
      summary: 'Make the next attempt now of every delivery to the endpoint waiting for a retry',
      description:
        'Wakes, as `.../deliveries/{endpoint_id}/retry-now` does, the endpoint\'s `retrying` deliveries: at most 100 per call, 10 at a time, in delivery id order. ' +
        'Answers how many were woken, and `next_cursor` while more may follow: send it back as `cursor` to go on. ' +
        `No worker took the call's requests within ${RETRY_NOW_ANSWER_MS / 1000} s in all → 503 \`service_unavailable\`; those woken stay woken, and the repeat counts them in \`not_waiting\`.`,
      body: RetryNowBody,
      success: [200, json('How many deliveries were woken.', BulkRetryNow)],
      answer: (owner, endpointId, body) => control.retryNowForEndpoint(owner, endpointId, body?.cursor),
    }),
    oneEndpoint({
      method: 'post',
      path: '/pause',
      summary: 'Pause an endpoint: no attempt is made to it until it is resumed',
      description:
        'New events are still accepted and matched to it, and deliveries go on being scheduled; each one whose attempt comes due waits instead, ' +
        'with `paused: true` and its `status` (`pending` or `retrying`), attempt count and schedule unchanged: waiting is not an attempt, ' +
        'and a pause never moves a delivery toward `failed`. An attempt already in flight finishes and is recorded. ' +
        'Retry now of a waiting delivery answers 409 `delivery_not_waiting` (it waits for the resume, not a retry); disabling or deleting ' +
        'the endpoint, or cancelling a delivery, still ends it `cancelled`. Pausing a paused endpoint changes nothing.',
      success: [200, json('The endpoint, `paused: true`.', Endpoint)],
      answer: (owner, endpointId) => pause.pause(owner, endpointId),
    }),
    oneEndpoint({
      method: 'post',
      path: '/resume',
      summary: 'Resume a paused endpoint: every delivery that waits makes its attempt now',
      description:
        'Clears `paused`, then wakes every delivery of the endpoint that waits, oldest event first, from the Temporal workflow ' +
        '`endpoint-resume-<endpoint id>`: each makes the attempt that came due during the pause, with its own attempt number, and the ' +
        'schedule goes on from it. Answers once the flag is cleared and the waking has started. Resuming an endpoint that is not paused changes nothing.',
      success: [200, json('The endpoint, `paused: false`.', Endpoint)],
      answer: (owner, endpointId) => pause.resume(owner, endpointId),
    }),
  ];
}
