import { NativeConnection, Worker, bundleWorkflowCode, WorkflowBundleWithSourceMap } from '@temporalio/worker';
import path from 'node:path';
import type { DeliveryActivities } from '../../activities/delivery-activities';

export const WORKFLOWS_PATH = path.resolve(__dirname, '..', '..', 'workflows', 'index.ts');

let bundlePromise: Promise<WorkflowBundleWithSourceMap> | undefined;

/** The workflow bundle is built once per process (webpack; ~seconds) and reused by every worker. */
export function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundlePromise ??= bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quietBundlerLogger });
  return bundlePromise;
}

const quietBundlerLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => process.stderr.write(`[bundler] ${message}\n`),
  error: (message: string) => process.stderr.write(`[bundler] ${message}\n`),
};

export interface DeliveryWorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  activities: DeliveryActivities;
}

export async function createDeliveryWorker(options: DeliveryWorkerOptions): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = await NativeConnection.connect({ address: options.address });
  const worker = await Worker.create({
    connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    workflowBundle: await workflowBundle(),
    activities: options.activities,
    // Deliveries are I/O-bound: many concurrent POSTs per worker.
    maxConcurrentActivityTaskExecutions: 200,
    maxConcurrentWorkflowTaskExecutions: 100,
    maxCachedWorkflows: 2000,
    shutdownGraceTime: '35 seconds',
  });
  return { worker, connection };
}
