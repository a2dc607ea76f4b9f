import { defineSignal } from '@temporalio/workflow';

/** From the resume workflow: the paused delivery makes its attempt again; a signal, kept if sent before the run waits. */
export const resume = defineSignal('resume');
