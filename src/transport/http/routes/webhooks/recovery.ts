import type { EventService } from '../../../../services/event-service';
import { json } from '../../responses';
import { oneEndpoint } from './endpoints';
import { RecoverBody, Recovery } from './schemas';

export function recoveryRoutes(service: EventService) {
  return [
    oneEndpoint({
      method: 'post',
      path: '/recover',
      summary: 'Start again every failed or cancelled delivery to the endpoint since a time',
      description:
        'Every delivery to this endpoint that ended `failed` or `cancelled` and was first attempted since `since` starts a new round, ' +
        'as a manual retry would (same rules: at most 10 rounds; one in flight is left alone). Answers 202 with how many ' +
        'deliveries the recovery starts again (at most 1,000, the oldest first) while it runs as the Temporal workflow ' +
        '`recover-<endpoint id>`. While it runs, calling again answers the same recovery. `since` more than 7 days back or in the ' +
        'future → 400; a disabled endpoint → 409 `endpoint_disabled` (enable it first).',
      body: RecoverBody,
      success: [202, json('The running recovery.', Recovery)],
      moreErrors: [409],
      answer: (accountId, endpointId, body) => service.recover(accountId, endpointId, new Date(body.since)),
    }),
  ];
}
