import { ActivityInterceptorsFactory, DefaultLogger, LogEntry, LogLevel, NativeConnection, Runtime, Worker, bundleWorkflowCode, WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DeliveryActivities } from '../../activities/delivery-activities';
import type { RecoveryActivities } from '../../activities/recovery-activities';
import type { ResumeActivities } from '../../activities/resume-activities';
import { WorkflowTaskSlots } from './workflow-task-slots';
import { DELIVERY_TASK_TIMEOUT_MS, SDK_EXTENDS_TASK_AT } from '../domain/webhooks/first-attempt-budget';
import type { Tracing } from '../infra/tracing/start-tracing';

const workflowsDir = path.resolve(__dirname, '..', '..', 'workflows');
const WORKFLOWS_PATH = existsSync(path.join(workflowsDir, 'index.ts')) ? path.join(workflowsDir, 'index.ts') : path.join(workflowsDir, 'index.js');

const bundles = new Map<string, Promise<WorkflowBundleWithSourceMap>>();

/** Built once per process (webpack takes seconds) for every worker; with tracing, its workflow interceptors are bundled in. */
export function workflowBundle(interceptorModule?: string): Promise<WorkflowBundleWithSourceMap> {
  const key = interceptorModule ?? '';
  const bundle = bundles.get(key) ?? bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quietBundlerLogger, ...(interceptorModule && { workflowInterceptorModules: [interceptorModule] }) });
  bundles.set(key, bundle);
  return bundle;
}

const quiet = () => undefined;
const toStderr = (message: string) => process.stderr.write(`[bundler] ${message}\n`);
const quietBundlerLogger = { log: quiet, trace: quiet, debug: quiet, info: quiet, warn: toStderr, error: toStderr };

function writeSdkLog(entry: LogEntry): void {
  const at = new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString();
  let meta = '';
  if (entry.meta && Object.keys(entry.meta).length > 0) {
    try {
      meta = ` ${JSON.stringify(entry.meta, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v instanceof Error ? v.stack ?? v.message : v))}`;
    } catch {
      meta = ' (metadata not printable)';
    }
  }
  process.stderr.write(`${at} [${entry.level}] ${entry.message}${meta}\n`);
}

/** The SDK's own log (worker state changes) at warn level; installed once per process. */
export function ensureRuntime(level: LogLevel = 'WARN'): void {
  // The SDK warns (TMPRL1104) about tasks over 5 s; a first task lasts as long as its receiver, so warn only where the SDK extends one.
  process.env.TEMPORAL_WORKFLOW_TASK_DURATION_WARN_SECONDS ??= String(Math.ceil((DELIVERY_TASK_TIMEOUT_MS * SDK_EXTENDS_TASK_AT) / 1000));
  try {
    Runtime.install({
      logger: new DefaultLogger(level, writeSdkLog),
      // The process's own stop (enter-roles.ts) stops the worker; the SDK's signals would stop it alone, the API still taking events.
      shutdownSignals: [],
    });
  } catch {
    // Already installed in this process (an earlier call, or the testing package): Runtime.install throws before doing anything.
  }
}

/** A new tuner per worker. `firstAttemptsHeld`: at 25 s each, 600 hold the receivers of 24 new events/s. */
export const deliveryWorkerTuning = (firstAttemptsHeld: number, eagerStarts: boolean) => {
  // An eager start needs a free slot and a first attempt holds one until answered: twice the start window, so a burst's starts do not wait for slots (bench:overload, BENCHMARKS.md), plus held ones.
  const max = 400 + firstAttemptsHeld;
  // At least the task slots: a run whose task is open stays in the cache.
  const maxCachedWorkflows = Math.max(2000, max);
  // Deliveries are I/O-bound: many concurrent POSTs per worker.
  const activitySlots = 200;
  // Fixed counts (the start window paces eager starts): a JavaScript supplier deadlocks an eager start against the shutdown.
  if (eagerStarts) {
    return { maxConcurrentActivityTaskExecutions: activitySlots, maxConcurrentLocalActivityExecutions: max, maxConcurrentWorkflowTaskExecutions: max, maxCachedWorkflows };
  }
  // Tasks busy with anything but a POST before a worker stops polling: milliseconds each, so 16 outpace delivery several times.
  const slots = new WorkflowTaskSlots({ max, ahead: 16 });
  return {
    // Every first task comes from the normal queue, where the SDK's default of two polls caps deliveries below the server's rate (bench:delivery, BENCHMARKS.md).
    maxConcurrentWorkflowTaskPolls: 20,
    nonStickyToStickyPollRatio: 0.8,
    tuner: {
      workflowTaskSlotSupplier: slots.workflowTaskSlotSupplier,
      localActivityTaskSlotSupplier: slots.localActivityTaskSlotSupplier,
      activityTaskSlotSupplier: { type: 'fixed-size' as const, numSlots: activitySlots },
      nexusTaskSlotSupplier: { type: 'fixed-size' as const, numSlots: 1 },
    },
    maxCachedWorkflows,
  };
};

export function activityStartedInterceptor(onStarted: (workflowId: string) => void): ActivityInterceptorsFactory {
  return (ctx) => {
    const workflowId = ctx.info.workflowExecution?.workflowId;
    if (workflowId) onStarted(workflowId);
    return {};
  };
}

let workersCreated = 0;

export async function createDeliveryWorker(options: {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  activities: DeliveryActivities & RecoveryActivities & ResumeActivities;
  /** Told the workflow id whenever an activity starts here (the outbox's start window listens). */
  onActivityStarted: (workflowId: string) => void;
  /** How long a shutdown waits for activities in flight before cancelling them (the platform's stop grace). */
  shutdownGraceMs: number;
  /** Slow first attempts kept in their task at once (DELIVERY_FIRST_ATTEMPTS_HELD_MAX): slots on top of the 400. */
  firstAttemptsHeld: number;
  /** Whether this process's client starts workflows eagerly on this worker (API and worker in one process). */
  eagerStarts: boolean;
  tracing?: Pick<Tracing, 'activityInterceptor' | 'workflowInterceptorModule' | 'workflowSinks'>;
}): Promise<Worker> {
  return Worker.create({
    // Temporal's default identity numbered, so two workers of one process are told apart in histories.
    identity: `${process.pid}@${os.hostname()}#${++workersCreated}`,
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    workflowBundle: await workflowBundle(options.tracing?.workflowInterceptorModule),
    activities: options.activities,
    interceptors: { activity: [...(options.tracing ? [options.tracing.activityInterceptor] : []), activityStartedInterceptor(options.onActivityStarted)] },
    ...(options.tracing && { sinks: options.tracing.workflowSinks }),
    ...deliveryWorkerTuning(options.firstAttemptsHeld, options.eagerStarts),
    shutdownGraceTime: options.shutdownGraceMs,
  });
}
