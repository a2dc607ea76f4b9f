import type { Clock } from '../src/domain/clock';
import { buildDeliveryHeaders } from '../src/domain/webhooks/delivery-request';
import { openCredentials, type Credentials, type Destination } from '../src/domain/webhooks/destination';
import { limitsOf, type EndpointLimits } from '../src/domain/webhooks/endpoint-limits';
import { orderingOf } from '../src/domain/webhooks/fifo-order';
import { secretsInGrace } from '../src/domain/webhooks/secret-rotation';
import { signPayload, signStandard } from '../src/domain/webhooks/signature';
import type { EndpointDoc } from '../src/persistence/endpoints';
import type { AttemptInput, DeliveryActivityDeps, DeliveryTarget } from './delivery-activities';
import type { BrokerTarget, OutgoingMessage } from './transport';

/** The endpoint as an attempt finds it: gone or disabled, paused, or the signed message and its limits (or why this worker cannot sign it). */
export type Prepared =
  | { kind: 'cancelled' }
  | { kind: 'paused' }
  | { kind: 'send'; message: OutgoingMessage; limits: EndpointLimits | null; fifo: boolean }
  | { kind: 'unsendable'; url: string; error: string; fifo: boolean };

export type RequestDeps = Pick<DeliveryActivityDeps, 'endpoints' | 'enabledEndpoints' | 'secretBox'> & { clock: Clock };

/** Reading the endpoint an attempt goes to, and the signed message it sends. */
export function createAttemptRequests(deps: RequestDeps) {
  /** An enabled endpoint from the cache, else read: a disabled or deleted one is always seen as such. */
  async function currentEndpoint(input: DeliveryTarget): Promise<EndpointDoc | null> {
    const cached = (await deps.enabledEndpoints(input.accountId)).find((e) => e._id === input.endpointId);
    return cached || deps.endpoints.find(input.accountId, input.endpointId);
  }

  /** The request as the endpoint now is (read from the store itself with `fromStore`): a rotated secret, a changed URL. */
  async function prepare(input: AttemptInput, fromStore = false): Promise<Prepared> {
    const endpoint = fromStore ? await deps.endpoints.find(input.accountId, input.endpointId) : await currentEndpoint(input);
    if (!endpoint || endpoint.disabled) return { kind: 'cancelled' };
    if (endpoint.paused && input.pausable) return { kind: 'paused' };
    const now = deps.clock();
    const fifo = orderingOf(endpoint) === 'fifo';
    let secrets: string[];
    let credentials: Credentials | undefined;
    try {
      // Newest first: the current secret, then those still in their rotation grace at this attempt.
      secrets = [endpoint.secret_sealed, ...secretsInGrace(endpoint, now).map((s) => s.sealed)].map((sealed) => deps.secretBox.open(sealed));
      if (endpoint.destination) credentials = openCredentials(endpoint.destination.credentials_sealed, deps.secretBox);
    } catch {
      // No retry of this activity can fix it: record a failed attempt and let the schedule go on.
      return {
        kind: 'unsendable',
        url: endpoint.url,
        fifo,
        error: "The endpoint's signing secret or destination credentials cannot be opened with this worker's SECRETS_ENCRYPTION_KEY (every API and worker process must use the same key).",
      };
    }
    const attemptTimestamp = Math.floor(now.getTime() / 1000);
    const headers = buildDeliveryHeaders({
      id: input.eventId,
      type: input.type,
      timestamp: input.timestamp,
      signature: signPayload(secrets[0] as string, input.body),
      attemptTimestamp,
      standardSignature: signStandard(secrets, String(input.eventId), attemptTimestamp, input.body),
    });
    const message: OutgoingMessage = { url: endpoint.url, headers: { ...headers }, body: input.body };
    if (endpoint.destination && credentials) {
      const { type, config } = endpoint.destination;
      message.broker = { destination: { type, config } as Destination, credentials, eventId: input.eventId, endpointId: input.endpointId, fifo } satisfies BrokerTarget;
    }
    return { kind: 'send', message, limits: limitsOf(endpoint), fifo };
  }

  return { currentEndpoint, prepare };
}
