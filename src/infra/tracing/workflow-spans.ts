import type { AttributeValue, Attributes, Context, SpanContext } from '@opentelemetry/api';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace';

/**
 * The workflow's spans reach this process through a sink (Temporal's interceptors), shaped by the
 * tracing SDK those interceptors carry (an older line: `parentSpanId`, `instrumentationLibrary`).
 * They are reshaped for this process's SDK before its processor exports them, and their attributes
 * keep plain values only (the sink adds the workflow's info, whose objects exporters cannot take).
 */
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
    attributes: plainAttributes(span.attributes),
  };
}

function plainAttributes(attributes: Attributes): Attributes {
  const plain: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (isPlain(value)) plain[key] = value;
  return plain;
}

function isPlain(value: unknown): value is AttributeValue {
  const scalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
  return scalar(value) || (Array.isArray(value) && value.every((v) => v === null || v === undefined || scalar(v)));
}
