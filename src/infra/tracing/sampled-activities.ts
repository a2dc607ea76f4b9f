import { context, trace } from '@opentelemetry/api';
import { isSpanContextValid, TraceFlags } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import { extractContextFromHeaders } from '@temporalio/interceptors-opentelemetry/lib/instrumentation';
import type { ActivityExecuteInput, ActivityInboundCallsInterceptor, Next } from '@temporalio/worker';

/**
 * An attempt of an event the edge did not pick runs with tracing suppressed, without Temporal's
 * interceptor: its store commands, POST and the platform's own spans then cost a context lookup each.
 */
export function activityInterceptorWhenSampled(traced: ActivityInboundCallsInterceptor & { execute: NonNullable<ActivityInboundCallsInterceptor['execute']> }): ActivityInboundCallsInterceptor {
  return {
    execute: (input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>) => {
      const parent = trace.getSpanContext(extractContextFromHeaders(input.headers) ?? context.active());
      const sampled = parent !== undefined && isSpanContextValid(parent) && (parent.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED;
      return sampled ? traced.execute(input, next) : context.with(suppressTracing(context.active()), () => next(input));
    },
  };
}
