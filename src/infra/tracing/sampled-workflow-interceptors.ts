/**
 * Bundled into the workflow code when traces can be sampled (start-tracing.ts). Temporal's
 * OpenTelemetry interceptors (traced-workflow-run.ts) are made only for a run whose start carries a
 * sampled trace; a run of an event the edge did not pick loads none of their modules, and its calls
 * pass straight through.
 */
import { defaultPayloadConverter } from '@temporalio/common';
import type { TracedRun } from './traced-workflow-run';
import type { Headers, WorkflowInboundCallsInterceptor, WorkflowInterceptors, WorkflowInternalsInterceptor, WorkflowOutboundCallsInterceptor } from '@temporalio/workflow';

/** Where Temporal's OpenTelemetry interceptors carry the trace context (their TRACE_HEADER). */
const TRACE_HEADER = '_tracer-data';

/** Whether the headers carry a W3C traceparent whose sampled flag is set. */
export function carriesSampledTrace(headers: Headers): boolean {
  const payload = headers[TRACE_HEADER];
  if (payload === undefined) return false;
  const carrier = defaultPayloadConverter.fromPayload<{ traceparent?: unknown }>(payload);
  const flags = typeof carrier?.traceparent === 'string' ? carrier.traceparent.split('-')[3] : undefined;
  return flags !== undefined && (Number.parseInt(flags, 16) & 1) === 1;
}

// Module state is per run: Temporal gives each workflow its own module instances and globals.
let traced: TracedRun | undefined;

export const interceptors = (): WorkflowInterceptors => {
  const inbound: WorkflowInboundCallsInterceptor = {
    execute: (input, next) => {
      if (!carriesSampledTrace(input.headers)) return next(input);
      // Required here, not imported: every run evaluates the modules it loads, and OpenTelemetry's
      // are many; a run nobody traces loads none.
      traced = (require('./traced-workflow-run') as typeof import('./traced-workflow-run')).tracedRun();
      return traced.inbound.execute(input, next);
    },
    handleSignal: (input, next) => (traced ? traced.inbound.handleSignal(input, next) : next(input)),
  };
  const outbound: WorkflowOutboundCallsInterceptor = {
    scheduleActivity: (input, next) => (traced ? traced.outbound.scheduleActivity(input, next) : next(input)),
    scheduleLocalActivity: (input, next) => (traced ? traced.outbound.scheduleLocalActivity(input, next) : next(input)),
    startChildWorkflowExecution: (input, next) => (traced ? traced.outbound.startChildWorkflowExecution(input, next) : next(input)),
    continueAsNew: (input, next) => (traced ? traced.outbound.continueAsNew(input, next) : next(input)),
    signalWorkflow: (input, next) => (traced ? traced.outbound.signalWorkflow(input, next) : next(input)),
    getLogAttributes: (input, next) => (traced ? traced.outbound.getLogAttributes(input, next) : next(input)),
  };
  const internals: WorkflowInternalsInterceptor = {
    dispose: (input, next) => (traced ? traced.internals.dispose(input, next) : next(input)),
  };
  return { inbound: [inbound], outbound: [outbound], internals: [internals] };
};
