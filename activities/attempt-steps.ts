import type { DestinationType } from '../src/domain/webhooks/destination';
import type { HandOffStage } from '../src/infra/metrics';
import type { GateAnswer } from './attempt-gate';
import type { OutgoingMessage, SendResult } from './transport';

/**
 * What the Temporal Web UI shows of one attempt, in its activity's result (a local first attempt's marker) or its failure's
 * details: gate → send → settle. Bounded and safe to show: names, a status code and durations; never a URL, a header,
 * a body or an error's text (those are in the attempt's record). Workflow code never reads it.
 */
export interface AttemptSteps {
  gate: GateStep;
  /** Present when the message went. */
  send?: SendStep;
  /** Present when the attempt was recorded (or found recorded) or its round ended cancelled. */
  settle?: SettleStep;
}

/** `send`, or why nothing went now: made before (`recorded`), not the platform's, waiting, ended, no place, or unsignable. */
export type GateStep = 'send' | 'recorded' | 'not-accepted' | 'paused' | 'queued' | 'cancelled' | 'throttled' | 'unsendable';

export interface SendStep {
  transport: 'https' | DestinationType;
  /** `HTTP <status>`, `confirmed` (a broker's), or the kind of failure: `timeout` or `network`. */
  result: string;
  ms: number;
}

export interface SettleStep {
  /** The status the attempt left its delivery in. */
  recorded: 'retrying' | 'succeeded' | 'failed' | 'cancelled';
  nextAttemptInMs?: number;
  /** This attempt's failure disabled the endpoint (auto-disable). */
  endpointDisabled?: true;
  /** The delivery left its FIFO place, waking the next. */
  leftFifoQueue?: true;
}

/** A local first attempt handed off: how far it had got (its whole steps come with its outcome, in the `attemptOutcome` update). */
export interface HandedOffSteps {
  /** Absent: the gate had not answered yet. */
  gate?: GateStep;
  /** What it was waiting for: the store (the gate's reads, or its record once sent), a place, or the receiver. */
  handedOffDuring: HandOffStage;
}

/** The gate's answer, by name. */
export function gateStep(answer: GateAnswer): GateStep {
  return answer.kind === 'wait' ? answer.status : answer.kind;
}

/** How the message went: its transport (a broker endpoint's type, else HTTPS), how it ended, how long it took. */
export function sendStep(message: OutgoingMessage, result: SendResult): SendStep {
  const { outcome } = result;
  const ended = outcome.kind === 'status' ? `HTTP ${outcome.statusCode}` : outcome.kind;
  return { transport: message.broker?.destination.type ?? 'https', result: ended, ms: result.durationMs };
}

/** What settling left: the status recorded, when the next attempt comes, and what the delivery's end set off. */
export function settleStep(recorded: SettleStep['recorded'], nextDelayMs: number | null, ended?: { endpointDisabled: boolean; leftFifoQueue: boolean }): SettleStep {
  return {
    recorded,
    ...(nextDelayMs !== null && { nextAttemptInMs: nextDelayMs }),
    ...(ended?.endpointDisabled && { endpointDisabled: true }),
    ...(ended?.leftFifoQueue && { leftFifoQueue: true }),
  };
}
