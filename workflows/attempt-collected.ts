import { defineSignal, defineUpdate } from '@temporalio/workflow';
import type { CollectedOutcome } from '../activities/attempt-hand-off';

/**
 * What the process that made a handed-off first attempt tells a `deliveryWorkflow` run (patch
 * `collect-by-signal`, workflows/delivery.ts) once the POST has ended and been recorded. A signal
 * costs Temporal one write for the signal, one for the workflow task it schedules and starts, and
 * one for that task's completion.
 */
export const attemptCollected = defineSignal<[CollectedOutcome]>('attemptCollected');

/**
 * The same news for a `deliveryWorkflowV2` run, as an update: Temporal hands it to the worker in a
 * speculative workflow task, kept in memory, and writes it once, with that task's completion (which
 * also ends the run on a success). So a handed-off attempt costs two writes (its own task's and this
 * one) instead of four. The run rejects, in its validator,
 * an update it is not waiting for (nothing is written then).
 */
export const attemptOutcome = defineUpdate<void, [CollectedOutcome]>('attemptOutcome');
