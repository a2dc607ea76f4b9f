import type { Context } from 'koa';
import type { Principal } from '../../../../services/key-authenticator';
import type { RecoveryService } from '../../../../services/recovery-service';
import { BEARER, json, keyScopedResponses } from '../../responses';
import { defineRoute } from '../../route';
import { EndpointIdParams, RecoverBody, Recovery } from './schemas';

const account = (ctx: Context) => (ctx.state.principal as Principal).account._id;

/** Bulk recovery of an endpoint's failed deliveries (like Svix's recover). */
export function recoveryRoutes(service: RecoveryService) {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/webhooks/endpoints/:id/recover',
      summary: 'Start again every failed or cancelled delivery to the endpoint since a time',
      description:
        'Every delivery to this endpoint that ended `failed` or `cancelled` and was first attempted since `since` starts a new round, ' +
        'as a manual retry would (same rules: at most 10 rounds; one in flight is left alone). Answers 202 with how many ' +
        'deliveries the recovery starts again (at most 1,000, the oldest first) while it runs as the Temporal workflow ' +
        '`recover-<endpoint id>`. While it runs, calling again answers the same recovery. `since` more than 7 days back or in the ' +
        'future → 400; a disabled endpoint → 409 `endpoint_disabled` (enable it first).',
      tags: ['Webhook endpoints'],
      security: BEARER,
      params: EndpointIdParams,
      body: RecoverBody,
      responses: keyScopedResponses({ 202: json('The running recovery.', Recovery) }, 400, 404, 409),
      handler: async (ctx, { params, body }) => {
        ctx.status = 202;
        ctx.body = await service.recover(account(ctx), params.id, new Date(body.since));
      },
    }),
  ];
}
