import { OpenTelemetryInboundInterceptor, OpenTelemetryInternalsInterceptor, OpenTelemetryOutboundInterceptor } from '@temporalio/interceptors-opentelemetry/lib/workflow';

/** Temporal's OpenTelemetry interceptors for one traced run. */
export function tracedRun() {
  return { inbound: new OpenTelemetryInboundInterceptor(), outbound: new OpenTelemetryOutboundInterceptor(), internals: new OpenTelemetryInternalsInterceptor() };
}

export type TracedRun = ReturnType<typeof tracedRun>;
