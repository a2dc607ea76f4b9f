/**
 * The Temporal-only ceiling's workflows (bench/temporal-ceiling.ts): one no-op activity, and
 * variants that add, one at a time, what the delivery workflow adds, to see what each costs.
 */
import { proxyActivities, proxyLocalActivities, upsertSearchAttributes } from '@temporalio/workflow';
import { WEBHOOK_ATTEMPT_COUNT, WEBHOOK_DELIVERY_STATUS } from '../src/temporal/search-attributes';

type Noop = { noop(id: number): Promise<void> };
const plain = proxyActivities<Noop>({ startToCloseTimeout: '30 seconds' });
const heartbeating = proxyActivities<Noop>({ startToCloseTimeout: '30 seconds', heartbeatTimeout: '8 seconds' });

export async function ceilingWorkflow(id: number): Promise<void> {
  await plain.noop(id);
}

/** With the delivery activity's heartbeat time-out. */
export async function ceilingHeartbeatWorkflow(id: number): Promise<void> {
  await heartbeating.noop(id);
}

/** With a search-attribute update after the activity (started with the delivery's attributes). */
export async function ceilingAttributesWorkflow(id: number): Promise<void> {
  await plain.noop(id);
  upsertSearchAttributes([
    { key: WEBHOOK_DELIVERY_STATUS, value: 'succeeded' },
    { key: WEBHOOK_ATTEMPT_COUNT, value: 1 },
  ]);
}

const local = proxyLocalActivities<Noop>({ startToCloseTimeout: '30 seconds' });

/** The activity run as a local activity (in the worker that runs the workflow task). */
export async function ceilingLocalWorkflow(id: number): Promise<void> {
  await local.noop(id);
}
