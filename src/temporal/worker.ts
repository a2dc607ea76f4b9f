import { DefaultLogger, LogEntry, LogLevel, NativeConnection, Runtime, Worker, WorkerOptions, bundleWorkflowCode, WorkflowBundleWithSourceMap } from '@temporalio/worker';
import os from 'node:os';
import path from 'node:path';
import type { DeliveryActivities } from '../../activities/delivery-activities';
import type { RecoveryActivities } from '../../activities/recovery-activities';
import { WorkflowTaskSlots } from './workflow-task-slots';
import { DELIVERY_TASK_TIMEOUT_MS, SDK_EXTENDS_TASK_AT } from '../domain/webhooks/first-attempt-budget';

import { existsSync } from 'node:fs';

/** workflows/index.ts when run from source (tsx), workflows/index.js when compiled (dist/). */
const workflowsDir = path.resolve(__dirname, '..', '..', 'workflows');
export const WORKFLOWS_PATH = existsSync(path.join(workflowsDir, 'index.ts')) ? path.join(workflowsDir, 'index.ts') : path.join(workflowsDir, 'index.js');

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
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  /** The recovery activities are optional only so that tests may run deliveries alone; the platform always wires them. */
  activities: DeliveryActivities & Partial<RecoveryActivities>;
  /** Told the workflow id whenever an activity starts here (the outbox's start window listens). */
  onActivityStarted?: (workflowId: string) => void;
  /** How long a shutdown waits for activities in flight before cancelling them (the platform's stop grace). */
  shutdownGraceMs?: number;
  /** Slow first attempts kept in their task at once (DELIVERY_FIRST_ATTEMPTS_HELD_MAX): slots on top of the 400. */
  firstAttemptsHeld: number;
  /** Whether this process's client starts workflows eagerly on this worker (API and worker in one process). */
  eagerStarts: boolean;
}

const DEFAULT_SHUTDOWN_GRACE_MS = 35_000;

let runtimeInstalled = false;

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
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  // The SDK warns (TMPRL1104) about every workflow task that lasts over 5 s. A delivery's first
  // task lasts as long as its receiver takes, up to the hold (first-attempt-budget.ts), by design:
  // it warns only about a task that reached the point where the SDK must extend it. Read by the
  // SDK's core at its first warning; an operator's own value is kept.
  process.env.TEMPORAL_WORKFLOW_TASK_DURATION_WARN_SECONDS ??= String(Math.ceil((DELIVERY_TASK_TIMEOUT_MS * SDK_EXTENDS_TASK_AT) / 1000));
  try {
    Runtime.install({
      logger: new DefaultLogger(level, writeSdkLog),
    });
  } catch {
    // Already installed by someone else in this process (e.g. the testing package).
  }
}

/**
 * Workflow tasks a worker holds busy with anything but a POST before it stops polling for more
 * (workflow-task-slots.ts): past that, a polled task would wait in the worker's own first-come queue
 * rather than in Temporal's fair one. A task's own work is milliseconds of CPU and a round trip to
 * Temporal, so 16 keep a worker busy at several times its delivery capacity.
 */
export const WORKFLOW_TASKS_AHEAD = 16;

/** Workflow-task polls of a worker-only process, most of them on the normal queue (see deliveryWorkerTuning). */
export const WORKFLOW_TASK_POLLS = 20;
export const NON_STICKY_POLL_SHARE = 0.8;

/**
 * How a delivery worker runs tasks; the Temporal-only ceiling benchmark uses the same. A new tuner
 * for every worker: its slots count that worker's tasks.
 * `firstAttemptsHeld`: slow first attempts it keeps in their task at once (activities/attempt-holds.ts,
 * DELIVERY_FIRST_ATTEMPTS_HELD_MAX: at 25 s each, 600 hold the receivers of 24 new events/s).
 *
 * With `eagerStarts`, the slots are a fixed count: an eager start reserves its slot from a core
 * thread that, with a slot supplier written in JavaScript, waits for this process's event loop
 * while holding a lock that the worker's shutdown takes from that same loop, and the two
 * deadlock (a test process hung in `initiate_shutdown`). Such a process has the start window,
 * which paces its starts by when their attempts begin, so the worker pulls little it cannot start.
 */
export const deliveryWorkerTuning = (firstAttemptsHeld: number, eagerStarts: boolean) => {
  // A first attempt is a local activity: it holds its workflow task's slot until the POST is
  // answered. An eager start needs a free slot (else its task goes through the task queue, which
  // costs Temporal more), so 400 of them are for that: twice as many as the start window (200)
  // lets wait (a 4,000 burst ran at 60–61/s with 100 slots, 68–74/s with 400: bench:delivery).
  // The other `firstAttemptsHeld` are for slow receivers' attempts that keep their task, so that
  // those never take the 400.
  const max = 400 + firstAttemptsHeld;
  // At least the task slots: a run whose task is open stays in the cache.
  const maxCachedWorkflows = Math.max(2000, max);
  // Deliveries are I/O-bound: many concurrent POSTs per worker.
  const activitySlots = 200;
  if (eagerStarts) {
    return { maxConcurrentActivityTaskExecutions: activitySlots, maxConcurrentLocalActivityExecutions: max, maxConcurrentWorkflowTaskExecutions: max, maxCachedWorkflows };
  }
  const slots = new WorkflowTaskSlots({ max, ahead: WORKFLOW_TASKS_AHEAD, localMax: max });
  return {
    // Every delivery's first task comes from the normal queue, not a sticky one, and without eager
    // starts every first task is polled: the SDK's default (10 polls, a fifth of them on the normal
    // queue) gives it two. bench:overload separate at 2 x C: goodput 49 -> 56/s, first POST p99 7.7 -> 5.5 s.
    maxConcurrentWorkflowTaskPolls: WORKFLOW_TASK_POLLS,
    nonStickyToStickyPollRatio: NON_STICKY_POLL_SHARE,
    tuner: {
      workflowTaskSlotSupplier: slots.workflowTaskSlotSupplier,
      localActivityTaskSlotSupplier: slots.localActivityTaskSlotSupplier,
      activityTaskSlotSupplier: { type: 'fixed-size' as const, numSlots: activitySlots },
      nexusTaskSlotSupplier: { type: 'fixed-size' as const, numSlots: 1 },
    },
    maxCachedWorkflows,
  };
};

/** Worker interceptors that tell `onStarted` the workflow id of every activity as it starts. */
export function activityStartedInterceptors(onStarted: (workflowId: string) => void): WorkerOptions['interceptors'] {
  return {
    activity: [
      (ctx) => {
        const workflowId = ctx.info.workflowExecution?.workflowId;
        if (workflowId) onStarted(workflowId);
        return {};
      },
    ],
  };
}

let workersCreated = 0;

/**
 * `<pid>@<host>#<n>`: Temporal's default identity (`<pid>@<host>`) numbered, so that two workers of
 * one process are told apart in histories and the Web UI (each workflow task records who ran it;
 * a first attempt runs in its workflow task).
 */
function workerIdentity(): string {
  return `${process.pid}@${os.hostname()}#${++workersCreated}`;
}

export async function createDeliveryWorker(options: DeliveryWorkerOptions): Promise<Worker> {
  return Worker.create({
    identity: workerIdentity(),
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    workflowBundle: await workflowBundle(),
    activities: options.activities,
    interceptors: options.onActivityStarted ? activityStartedInterceptors(options.onActivityStarted) : undefined,
    ...deliveryWorkerTuning(options.firstAttemptsHeld, options.eagerStarts),
    shutdownGraceTime: options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS,
  });
}

/**
 * Runs the worker and reports its end the moment it happens (logged as an error when it fails),
 * rather than leaving a rejection nobody handles until shutdown. Resolves either way.
 */
export function runWorker(worker: Pick<Worker, 'run'>, onFailure: (err: unknown) => void): Promise<void> {
  return worker.run().catch((err: unknown) => {
    onFailure(err);
  });
}
