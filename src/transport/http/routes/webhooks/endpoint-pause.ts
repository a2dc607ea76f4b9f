import type { EndpointService } from '../../../../services/endpoint-service';
import { json } from '../../responses';
import { oneEndpoint } from './endpoints';
import { Endpoint } from './schemas';

export function endpointPauseRoutes(service: EndpointService) {
  return [
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
      answer: (accountId, endpointId) => service.pause(accountId, endpointId),
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
      answer: (accountId, endpointId) => service.resume(accountId, endpointId),
    }),
  ];
}
