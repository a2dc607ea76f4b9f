import type { Context, SpanContext } from '@opentelemetry/api';
import { isAttributeValue } from '@opentelemetry/core';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace';

/** The workflow's spans, shaped by Temporal's older SDK, reshaped for this one's processor; only plain attribute values (exporters refuse objects). */
export function workflowSpanProcessor(processor: SpanProcessor): SpanProcessor {
  return {
    onStart: (_span, _parent: Context) => undefined,
    onEnd: (span) => processor.onEnd(reshaped(span as OlderSpan)),
    forceFlush: () => processor.forceFlush(),
    shutdown: () => Promise.resolve(),
  };
}

type OlderSpan = ReadableSpan & { parentSpanId?: string; instrumentationLibrary?: { name: string; version?: string } };

function reshaped(span: OlderSpan): ReadableSpan {
  const own = span.spanContext();
  const parentSpanContext: SpanContext | undefined =
    span.parentSpanContext ?? (span.parentSpanId ? { traceId: own.traceId, spanId: span.parentSpanId, traceFlags: own.traceFlags, isRemote: false } : undefined);
  return {
    ...span,
    spanContext: () => own,
    parentSpanContext,
    instrumentationScope: span.instrumentationScope ?? span.instrumentationLibrary ?? { name: '@temporalio/interceptor-workflow' },
    attributes: Object.fromEntries(Object.entries(span.attributes).filter(([, value]) => value != null && isAttributeValue(value))),
  };
}
