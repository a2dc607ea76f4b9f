import { defaultTextMapGetter, isSpanContextValid, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import type { Span } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { IncomingMessage } from 'node:http';

// A call's trace starts at the platform's edge: a caller's `traceparent` would otherwise choose the
// trace id stored with its event and whether the platform records it. The HTTP instrumentation reads
// an incoming request's headers through the global propagator; the headers of every incoming request
// are marked first (its start hook runs before that read), and the propagator reads nothing from them.

const edgeHeaders = new WeakSet<object>();
const w3c = new W3CTraceContextPropagator();

/** Called by the HTTP instrumentation for each incoming request, before it reads the trace context. */
export function markEdge(req: IncomingMessage): void {
  edgeHeaders.add(req.headers);
}

/** Whether `carrier` is an incoming request's headers: the propagator takes no parent from them. */
export function isEdgeCarrier(carrier: unknown): boolean {
  return typeof carrier === 'object' && carrier !== null && edgeHeaders.has(carrier);
}

/** A recorded root names the caller's span, when it sent one, as a link: the caller's trace stays findable, not in charge. */
export function linkCaller(span: Span, req: IncomingMessage): void {
  if (!span.isRecording() || typeof req.headers.traceparent !== 'string') return;
  const caller = trace.getSpanContext(w3c.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter));
  if (caller && isSpanContextValid(caller)) span.addLink({ context: caller });
}
