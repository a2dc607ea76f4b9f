import { Attributes, Context, context, createContextKey, propagation, ROOT_CONTEXT, Span, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import { randomBytes } from 'node:crypto';

// The spans no instrumentation sees: until `enableSpans` (tracing on) every helper is a plain call, a boolean test.
// They are made only under a recorded span: none starts a trace (sampling.ts), and work not traced pays a lookup.
// Traceparents are written and read by the W3C propagator that tracing registers (start-tracing.ts).

/** Attribute names, in one place for the code and docs/operating.md#traces. */
export const ATTR = {
  eventId: 'webhook.event.id',
  eventType: 'webhook.event.type',
  accountId: 'webhook.account.id',
  endpointId: 'webhook.endpoint.id',
  round: 'webhook.delivery.round',
  attempt: 'webhook.attempt.number',
  statusCode: 'http.response.status_code',
  attemptStatus: 'webhook.attempt.status',
  admission: 'webhook.ingest.admission',
  refusalReason: 'webhook.ingest.refusal_reason',
  destinationAllowed: 'webhook.destination.allowed',
  destinationRefusal: 'webhook.destination.refusal',
} as const;

/** Set in a context whose outgoing calls must not carry the trace (a POST to a customer's receiver). */
export const NO_PROPAGATION = createContextKey('webhook-platform no trace propagation');

let on = false;
let ingestSpanOf: (active: Context) => Span | undefined = () => undefined;

/** `ingestSpan` finds the HTTP server span of the call in flight (the root of an ingest's trace). */
export function enableSpans(ingestSpan: (active: Context) => Span | undefined): void {
  on = true;
  ingestSpanOf = ingestSpan;
}

const tracer = () => trace.getTracer('webhook-platform');
const recording = () => on && trace.getActiveSpan()?.isRecording() === true;

/** `work` inside a span named `name`, ended when it returns or its promise settles; a throw marks it failed, without the message. */
export function inSpan<T>(name: string, attributes: () => Attributes, work: (span?: Span) => T): T {
  if (!recording()) return work();
  return tracer().startActiveSpan(name, { attributes: attributes() }, (span) => {
    const failed = (err: unknown): never => {
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw err;
    };
    let settling = false;
    try {
      const result = work(span);
      if (!(result instanceof Promise)) return result;
      settling = true;
      return result.catch(failed).finally(() => span.end()) as T;
    } catch (err) {
      return failed(err);
    } finally {
      if (!settling) span.end();
    }
  });
}

/** A span from now until the callback it wraps is called (a socket's connect reports through one). */
export function spanAroundCallback<A extends unknown[]>(name: string, attributes: () => Attributes, done: (...args: A) => void): (...args: A) => void {
  if (!recording()) return done;
  const span = tracer().startSpan(name, { attributes: attributes() });
  return (...args: A) => {
    if (args[0]) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
    done(...args);
  };
}

/** A span of something that began earlier (a wait), ended now, under `parent`. */
export function recordPast(name: string, parent: Context, startMs: number, attributes: () => Attributes): void {
  const sampled = ((trace.getSpanContext(parent)?.traceFlags ?? TraceFlags.NONE) & TraceFlags.SAMPLED) === TraceFlags.SAMPLED;
  if (!on || !sampled) return;
  tracer().startSpan(name, { startTime: startMs, attributes: attributes() }, parent).end();
}

/** Adds attributes to the ingest's root span (the HTTP server span of the call in flight). */
export function annotateIngest(attributes: () => Attributes): void {
  const span = on ? ingestSpanOf(context.active()) : undefined;
  if (span?.isRecording()) span.setAttributes(attributes());
}

/** Adds attributes to the span in force (an activity's, made by Temporal's interceptor). */
export function annotateActive(attributes: () => Attributes): void {
  if (recording()) trace.getActiveSpan()?.setAttributes(attributes());
}

/** `work` with the trace kept from what it calls out to: its requests carry no traceparent. */
export function unpropagated<T>(work: () => T): T {
  if (!on) return work();
  return context.with(context.active().setValue(NO_PROPAGATION, true), work);
}

/** Stored with an accepted event that is traced, so its deliveries (started by the outbox, or crash recovery elsewhere) hang from the ingest's root span. */
export function currentTraceparent(): string | undefined {
  const span = on ? (ingestSpanOf(context.active()) ?? trace.getActiveSpan()) : undefined;
  const carrier: { traceparent?: string } = {};
  if (span?.isRecording()) propagation.inject(trace.setSpan(ROOT_CONTEXT, span), carrier);
  return carrier.traceparent;
}

/**
 * The context a stored traceparent names as parent. An event stored without one was not traced: its
 * deliveries run under a parent not sampled, which Temporal's headers carry, so that no later step
 * (the workflow's own spans) starts a trace of its own. Tracing off: the context in force.
 */
export function contextOfTraceparent(traceparent: string | undefined): Context {
  if (!on) return context.active();
  const parent = traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent }) : ROOT_CONTEXT;
  const span = trace.getSpanContext(parent);
  if (span && trace.isSpanContextValid(span)) return parent;
  return trace.setSpanContext(ROOT_CONTEXT, { traceId: randomBytes(16).toString('hex'), spanId: randomBytes(8).toString('hex'), traceFlags: TraceFlags.NONE, isRemote: true });
}

/** `work` under the stored traceparent's context (a workflow start joins its event's trace). */
export function underTraceparent<T>(traceparent: string | undefined, work: () => T): T {
  return context.with(contextOfTraceparent(traceparent), work);
}
