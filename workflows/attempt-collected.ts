import { defineSignal } from '@temporalio/workflow';
import type { CollectedOutcome } from '../activities/attempt-hand-off';

/**
 * What the process that made a handed-off first attempt tells its workflow once the POST has ended
 * and been recorded (patch `collect-by-signal`, workflows/delivery.ts). A signal costs Temporal one
 * write and the workflow task it wakes; collecting with an activity also schedules, dispatches
 * (through matching) and starts one, and arms two time-outs. The saving in Temporal's CPU was not
 * measurable on our 2-core VM (BENCHMARKS.md, issue 19's seventh session).
 */
export const attemptCollected = defineSignal<[CollectedOutcome]>('attemptCollected');
