import { defineSignal } from '@temporalio/workflow';

/** The patch id guarding the wait for a FIFO turn (every workflow change is patched and replay-tested). */
export const FIFO_PATCH = 'fifo-turn';

/**
 * From the delivery before it, once that one ended (services/fifo-turns.ts). A signal: the sender need not know whether
 * the run waits yet, and the run keeps one that comes while its look at the queue is still in flight.
 */
export const fifoTurn = defineSignal('fifoTurn');
