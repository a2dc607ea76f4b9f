import type { AttemptResult } from '../src/domain/webhooks/attempt-decision';
import type { Credentials, Destination } from '../src/domain/webhooks/destination';

/** What an attempt hands its transport: the destination, the signed headers and the exact body bytes. */
export interface OutgoingMessage {
  /** The HTTPS URL; a broker endpoint's label (no credential in it). */
  url: string;
  headers: Record<string, string>;
  body: string;
  /** A broker endpoint's: where to publish, with its credentials opened (absent: an HTTPS POST to `url`). */
  broker?: BrokerTarget;
}

export interface BrokerTarget {
  destination: Destination;
  credentials: Credentials;
  eventId: number;
  endpointId: string;
  /** A FIFO endpoint: Kafka keys its messages by endpoint (one partition keeps the order). */
  fifo: boolean;
}

/** Every way an attempt can end, as a value: only infrastructure faults of our own throw. */
export type SendResult =
  | { outcome: Extract<AttemptResult, { kind: 'status' }>; responseBody: string; error: null; durationMs: number }
  /** The broker confirmed the message. */
  | { outcome: Extract<AttemptResult, { kind: 'confirmed' }>; responseBody: null; error: null; durationMs: number }
  /** No answer (or the broker refused): `error` says why, for people (the attempt's record); `outcome` says which kind. */
  | { outcome: Exclude<AttemptResult, { kind: 'status' | 'confirmed' }>; responseBody: null; error: string; durationMs: number };

/**
 * The send step of an attempt: one message to one destination, its deadline and its destination checks its own.
 * HTTPS is one (http-sender.ts), each broker type another (destination-transports.ts); gate and settle know nothing of how a message travels.
 */
export interface Transport {
  send(message: OutgoingMessage): Promise<SendResult>;
  /** Closes its pooled connections (a stopping worker, once its attempts have ended). */
  close(): Promise<void>;
}

export function failed(kind: 'timeout' | 'network', error: string, durationMs: number): SendResult {
  return { outcome: { kind }, responseBody: null, error, durationMs };
}
