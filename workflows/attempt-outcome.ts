import { defineUpdate } from '@temporalio/workflow';
import type { ReportedOutcome } from '../activities/attempt-hand-off';

/** A handed-off attempt's outcome. An update, not a signal: two writes instead of four, none if rejected. */
export const attemptOutcome = defineUpdate<void, [ReportedOutcome]>('attemptOutcome');
