import { Context, context, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { parentForDeliveries, tracingOn } from './spans';

/** Stored with an accepted event, so deliveries started later (outbox, crash recovery elsewhere) join the ingest's trace. */
export function currentTraceparent(): string | undefined {
  const span = parentForDeliveries()?.spanContext();
  if (!span || !trace.isSpanContextValid(span)) return undefined;
  return `00-${span.traceId}-${span.spanId}-${(span.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The context a stored traceparent names as parent; the one in force when there is none (or tracing is off). */
export function contextOfTraceparent(traceparent: string | undefined): Context {
  if (!tracingOn() || !traceparent) return context.active();
  const match = TRACEPARENT.exec(traceparent);
  if (!match) return context.active();
  const spanContext = { traceId: match[1] as string, spanId: match[2] as string, traceFlags: parseInt(match[3] as string, 16) & TraceFlags.SAMPLED, isRemote: true };
  return trace.isSpanContextValid(spanContext) ? trace.setSpanContext(ROOT_CONTEXT, spanContext) : context.active();
}

/** `work` under the stored traceparent's context (a workflow start joins its event's trace). */
export function underTraceparent<T>(traceparent: string | undefined, work: () => T): T {
  return context.with(contextOfTraceparent(traceparent), work);
}
