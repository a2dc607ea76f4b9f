/** The Temporal-only ceiling's workflow: one no-op activity, nothing else (bench/temporal-ceiling.ts). */
import { proxyActivities } from '@temporalio/workflow';

const { noop } = proxyActivities<{ noop(id: number): Promise<void> }>({ startToCloseTimeout: '30 seconds' });

export async function ceilingWorkflow(id: number): Promise<void> {
  await noop(id);
}
