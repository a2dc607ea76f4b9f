import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'koa';
import { DomainError } from '../../../../domain/errors';
import type { LimitAdmitter } from '../../../../domain/limits/admission';
import { accountPolicy } from '../../../../domain/limits/policies';
import { ingestRejection, recordIngest } from '../../../../infra/metrics';
import type { IngestAdmission, IngestTicket } from '../../../../services/ingest-admission';
import { bearerToken, type KeyAuthenticator } from '../../../../services/key-authenticator';
import { httpStatusOf } from '../../error-status';
import { errorAnswer } from '../../middleware/error-handler';
import { accountOf, type EarlyAdmission, productOfPath } from '../../middleware/key-scoped';
import { limitHeaders, unmeteredState } from '../../middleware/metered';
import { requestIdFor } from '../../middleware/request-id';

export const EVENTS_PATH = '/api/v1/webhooks/events';
const EVENTS_PRODUCT = productOfPath(EVENTS_PATH);

/** Tickets `ingestShed` took, for the call's way through Koa. */
const earlyTickets = new WeakMap<IncomingMessage, IngestTicket>();

/**
 * Decides an ingest once, before metering or body (key-scoped.ts, admitEarly): under overload most ingests are refused,
 * and each refusal must cost next to nothing. Refusals are counted here, as the route's own count never sees them.
 */
export function ingestAdmission(admission: Pick<IngestAdmission, 'admit'>): (ctx: Context) => EarlyAdmission | undefined {
  const admit = (ctx: Context) => {
    let ticket = earlyTickets.get(ctx.req);
    earlyTickets.delete(ctx.req);
    if (ticket?.accountId !== accountOf(ctx)) {
      ticket?.release();
      try {
        ticket = admission.admit(accountOf(ctx));
      } catch (err) {
        recordIngestFailure(err);
        throw err;
      }
    }
    const taken = ticket;
    ctx.state.ingestTicket = taken;
    return () => taken.release();
  };
  return (ctx) => (isIngest(ctx.method, ctx.path) ? () => admit(ctx) : undefined);
}

/**
 * The same decision before Koa when all it needs is in memory (cached key, known limits); returns whether it answered.
 * At three times capacity refusals outnumber accepted events ten to one, and through Koa each costs several times the
 * decision, on the thread that also runs deliveries.
 */
export function ingestShed(deps: {
  authenticator: Pick<KeyAuthenticator, 'cachedPrincipal'>;
  limiter: Pick<LimitAdmitter, 'peek'>;
  admission: Pick<IngestAdmission, 'admit'>;
}): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if (!isIngest(req.method, (req.url ?? '').split('?')[0])) return false;
    const principal = deps.authenticator.cachedPrincipal(bearerToken(req.headers.authorization));
    if (!principal || principal.key.product !== EVENTS_PRODUCT) return false;
    const state = unmeteredState(deps.limiter, accountPolicy(principal.account._id, principal.account.tier));
    if (!state) return false;
    let ticket: IngestTicket;
    try {
      ticket = deps.admission.admit(principal.account._id);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      recordIngestFailure(err);
      const answer = errorAnswer(err);
      const body = JSON.stringify(answer.body);
      const incomingId = req.headers['x-request-id'];
      res.writeHead(answer.status, {
        'X-Request-Id': requestIdFor(typeof incomingId === 'string' ? incomingId : undefined),
        ...limitHeaders(state),
        ...answer.headers,
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': String(Buffer.byteLength(body)),
      });
      res.end(body);
      return true;
    }
    earlyTickets.set(req, ticket);
    // The guard takes the ticket and releases it once the call is answered; a call Koa ends before its guard asks releases it here.
    res.once('close', () => earlyTickets.delete(req) && ticket.release());
    return false;
  };
}

/** The calls the ingest route serves: the router takes its path with a trailing slash too. */
function isIngest(method: string | undefined, path: string): boolean {
  return method === 'POST' && (path === EVENTS_PATH || path === `${EVENTS_PATH}/`);
}

export function ticketOf(ctx: Context): IngestTicket {
  const ticket = ctx.state.ingestTicket as IngestTicket | undefined;
  if (!ticket) throw new Error('An ingest reached its handler without being admitted (key-scoped.ts, admitEarly).');
  return ticket;
}

/** Counts an ingest that ended in an error by its status (webhook_ingests_total). */
export function recordIngestFailure(err: unknown): void {
  recordIngest(ingestRejection(err instanceof DomainError ? httpStatusOf(err) : 500));
}
