/**
 * `v2.<base64url HMAC-SHA256>` over what the attempt signs, for whom, the round and the workflow id: anyone reaching Temporal
 * can start a delivery workflow, so a forged input sends nothing and a genuine one needs no read. Never log the key.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { TakenPlace } from './fifo-order';

const ACCEPTANCE_SEAL_VERSION = 'v2';
const KEY_INFO = 'webhook delivery acceptance seal v1';

export interface SealedDelivery {
  accountId: string;
  endpointId: string;
  eventId: number;
  round: number;
  /** The workflow the input was started as: the attempt checks that it runs in that workflow. */
  workflowId: string;
  type: string;
  timestamp: number;
  body: string;
  /** A FIFO delivery's place as taken at ingest (absent: none; a seal made without it is unchanged). */
  fifoPlace?: TakenPlace;
}

export type AcceptanceSeal = ReturnType<typeof createAcceptanceSeal>;

export function createAcceptanceSeal(secretsKey: Buffer) {
  // Its own key, derived: an HMAC under the key that encrypts endpoint secrets would mix two uses of one key.
  const key = Buffer.from(hkdfSync('sha256', secretsKey, Buffer.alloc(0), KEY_INFO, 32));
  const mac = (d: SealedDelivery) =>
    // A JSON array: no field can run into the next one (an account id ending where an endpoint id begins).
    createHmac('sha256', key)
      .update(JSON.stringify([ACCEPTANCE_SEAL_VERSION, d.accountId, d.endpointId, d.eventId, d.round, d.workflowId, d.type, d.timestamp, d.body, ...(d.fifoPlace ? [d.fifoPlace.n, d.fifoPlace.head] : [])]))
      .digest();
  return {
    seal: (delivery: SealedDelivery) => `${ACCEPTANCE_SEAL_VERSION}.${mac(delivery).toString('base64url')}`,
    /** True only for a seal this key made over exactly these fields (constant-time comparison). */
    verify(delivery: SealedDelivery, seal: string): boolean {
      if (typeof seal !== 'string' || !seal.startsWith(`${ACCEPTANCE_SEAL_VERSION}.`)) return false;
      const given = Buffer.from(seal.slice(ACCEPTANCE_SEAL_VERSION.length + 1), 'base64url');
      const expected = mac(delivery);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
