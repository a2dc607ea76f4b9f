/**
 * Bundled into the workflow code when traces can be sampled (start-tracing.ts). A run whose start
 * carries a sampled traceparent records its spans (the run, each activity it schedules, each signal
 * it handles or sends) as plain data and hands each, once ended, to the worker's tracer through the
 * `workflowSpans` sink (workflow-span-sink.ts). No OpenTelemetry module is bundled: Temporal gives
 * every run its own module instances, so each would be evaluated again by every run. Span ids come
 * from the workflow's seeded Math.random, so a replay makes the same ones; sinks are not called
 * during replay, so nothing is recorded twice.
 */
import { ApplicationFailure, ApplicationFailureCategory, defaultPayloadConverter } from '@temporalio/common';
import { ContinueAsNew, proxySinks, workflowInfo } from '@temporalio/workflow';
import type { Headers, Sinks, WorkflowInboundCallsInterceptor, WorkflowInterceptors, WorkflowOutboundCallsInterceptor } from '@temporalio/workflow';

/** Where Temporal's OpenTelemetry interceptors carry the trace context (their TRACE_HEADER): the client's and the activities' side still use them. */
const TRACE_HEADER = '_tracer-data';
const SAMPLED = 1;

export interface TraceParent {
  traceId: string;
  spanId: string;
}

/** A span a workflow run recorded, in the workflow's clock (epoch milliseconds). */
export interface WorkflowSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  startMs: number;
  endMs: number;
  /** Set when what the span covers failed (not for a benign failure or a continue-as-new). */
  error?: string;
}

export interface WorkflowSpanSinks extends Sinks {
  workflowSpans: { ended(span: WorkflowSpan): void };
}

/** The W3C traceparent in the headers, when its sampled flag is set. */
export function sampledParent(headers: Headers): TraceParent | undefined {
  const payload = headers[TRACE_HEADER];
  if (payload === undefined) return undefined;
  const carrier = defaultPayloadConverter.fromPayload<{ traceparent?: unknown }>(payload);
  const match = typeof carrier?.traceparent === 'string' ? /^[\da-f]{2}-([\da-f]{32})-([\da-f]{16})-([\da-f]{2})$/.exec(carrier.traceparent) : null;
  if (!match || (Number.parseInt(match[3] as string, 16) & SAMPLED) !== SAMPLED) return undefined;
  return { traceId: match[1] as string, spanId: match[2] as string };
}

function withTraceParent(headers: Headers, at: TraceParent): Headers {
  return { ...headers, [TRACE_HEADER]: defaultPayloadConverter.toPayload({ traceparent: `00-${at.traceId}-${at.spanId}-01` }) };
}

function newSpanId(): string {
  let id = '';
  while (id.length < 16) id += Math.floor(Math.random() * 0x1_0000_0000).toString(16).padStart(8, '0');
  return id;
}

function failureOf(err: unknown): string | undefined {
  if (err instanceof ContinueAsNew) return undefined;
  if (err instanceof ApplicationFailure && err.category === ApplicationFailureCategory.BENIGN) return undefined;
  return err instanceof Error ? err.message : String(err);
}

const { workflowSpans } = proxySinks<WorkflowSpanSinks>();

/** Runs `fn` as the span `name` under `parent`, recording it when `fn` settles. */
async function recorded<T>(name: string, parent: TraceParent, spanId: string, fn: () => Promise<T>): Promise<T> {
  const startMs = Date.now();
  let error: string | undefined;
  try {
    return await fn();
  } catch (err) {
    error = failureOf(err);
    throw err;
  } finally {
    workflowSpans.ended({ name, traceId: parent.traceId, spanId, parentSpanId: parent.spanId, startMs, endMs: Date.now(), ...(error !== undefined && { error }) });
  }
}

// Module state is per run: Temporal gives each workflow its own module instances and globals.
let run: TraceParent | undefined;

/** An outbound call carrying headers, recorded as its own span whose context the callee continues. */
function traced<I extends { headers: Headers }, O>(name: (input: I) => string, next: (input: I) => Promise<O>, input: I): Promise<O> {
  if (!run) return next(input);
  const spanId = newSpanId();
  return recorded(name(input), run, spanId, () => next({ ...input, headers: withTraceParent(input.headers, { traceId: run!.traceId, spanId }) }));
}

export const interceptors = (): WorkflowInterceptors => {
  const inbound: WorkflowInboundCallsInterceptor = {
    execute: (input, next) => {
      const parent = sampledParent(input.headers);
      if (!parent) return next(input);
      run = { traceId: parent.traceId, spanId: newSpanId() };
      return recorded(`RunWorkflow:${workflowInfo().workflowType}`, parent, run.spanId, () => next(input));
    },
    handleSignal: (input, next) => (run ? recorded(`HandleSignal:${input.signalName}`, sampledParent(input.headers) ?? run, newSpanId(), () => next(input)) : next(input)),
  };
  const outbound: WorkflowOutboundCallsInterceptor = {
    scheduleActivity: (input, next) => traced((i) => `StartActivity:${i.activityType}`, next, input),
    scheduleLocalActivity: (input, next) => traced((i) => `StartActivity:${i.activityType}`, next, input),
    startChildWorkflowExecution: (input, next) => traced((i) => `StartChildWorkflow:${i.workflowType}`, next, input),
    signalWorkflow: (input, next) => traced((i) => `SignalWorkflow:${i.signalName}`, next, input),
    continueAsNew: (input, next) => (run ? next({ ...input, headers: withTraceParent(input.headers, run) }) : next(input)),
  };
  return { inbound: [inbound], outbound: [outbound] };
};
