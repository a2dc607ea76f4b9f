import { defineSignal } from '@temporalio/workflow';

export const FIFO_PATCH = 'fifo-turn';

/** From the delivery before it, once ended (services/fifo-turns.ts); a signal, kept if sent before the run waits. */
export const fifoTurn = defineSignal('fifoTurn');
