import type { AttemptResult } from '../src/domain/webhooks/attempt-decision';

/** What an attempt hands its transport: the destination, the signed headers and the exact body bytes. */
export interface OutgoingMessage {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** Every way an attempt can end, as a value: only infrastructure faults of our own throw. */
export type SendResult =
  | { outcome: Extract<AttemptResult, { kind: 'status' }>; responseBody: string; error: null; durationMs: number }
  /** No answer: `error` says why, for people (the attempt's record); `outcome` says which kind. */
  | { outcome: Exclude<AttemptResult, { kind: 'status' }>; responseBody: null; error: string; durationMs: number };

/**
 * The send step of an attempt: one message to one destination, its deadline and its destination checks its own.
 * HTTPS is one (http-sender.ts); gate and settle know nothing of how a message travels.
 */
export interface Transport {
  send(message: OutgoingMessage): Promise<SendResult>;
  /** Closes its pooled connections (a stopping worker, once its attempts have ended). */
  close(): Promise<void>;
}

export function failed(kind: 'timeout' | 'network', error: string, durationMs: number): SendResult {
  return { outcome: { kind }, responseBody: null, error, durationMs };
}
