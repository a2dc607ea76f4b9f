import { SpanKind, SpanStatusCode, TraceFlags } from '@opentelemetry/api';
import { hrTimeDuration, millisToHrTime } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace';
import type { InjectedSinks } from '@temporalio/worker';
import type { WorkflowInfo } from '@temporalio/workflow';
import type { WorkflowSpan, WorkflowSpanSinks } from './sampled-workflow-interceptors';

/** The scope Temporal's own workflow interceptors name: trace views group the workflow's spans under it. */
const SCOPE = { name: '@temporalio/interceptor-workflow' };

/** The worker's side of a traced run's spans: each, once ended in the workflow, made a span of this process's tracer. */
export function workflowSpanSinks(processor: SpanProcessor, resource: Resource): InjectedSinks<WorkflowSpanSinks> {
  return {
    workflowSpans: {
      ended: { fn: (info, span) => processor.onEnd(readableSpan(info, span, resource)), callDuringReplay: false },
    },
  };
}

function readableSpan(info: WorkflowInfo, span: WorkflowSpan, resource: Resource): ReadableSpan {
  const startTime = millisToHrTime(span.startMs);
  const endTime = millisToHrTime(span.endMs);
  const own = { traceId: span.traceId, spanId: span.spanId, traceFlags: TraceFlags.SAMPLED };
  return {
    name: span.name,
    kind: SpanKind.INTERNAL,
    spanContext: () => own,
    parentSpanContext: { traceId: span.traceId, spanId: span.parentSpanId, traceFlags: TraceFlags.SAMPLED, isRemote: false },
    startTime,
    endTime,
    duration: hrTimeDuration(startTime, endTime),
    status: span.error === undefined ? { code: SpanStatusCode.OK } : { code: SpanStatusCode.ERROR, message: span.error },
    attributes: { temporalWorkflowId: info.workflowId, run_id: info.runId },
    links: [],
    events: [],
    ended: true,
    resource,
    instrumentationScope: SCOPE,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}
