import { context, propagation, trace } from '@opentelemetry/api';
import type { Context, TextMapSetter } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { getRPCMetadata, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { KoaInstrumentation } from '@opentelemetry/instrumentation-koa';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  Sampler,
  SpanExporter,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type { ActivityInterceptorsFactory, InjectedSinks } from '@temporalio/worker';
import type { SamplerName, TracingConfig } from '../../config/tracing-config';
import { enableSpans, NO_PROPAGATION } from './spans';
import { workflowSpanProcessor } from './workflow-spans';

/** What the Temporal client and worker add when tracing is on (src/temporal/client.ts, worker.ts). */
export interface Tracing {
  clientInterceptors: { workflow: OpenTelemetryWorkflowClientInterceptor[] };
  activityInterceptor: ActivityInterceptorsFactory;
  /** Bundled into the workflow code: the workflow's spans, sent out through `workflowSinks`. */
  workflowInterceptorModule: string;
  workflowSinks: InjectedSinks<Record<string, never>>;
  /** Exports what is still buffered; within the stop's budget. */
  shutdown(): Promise<void>;
}

/** The SDK and the instrumentations, started before the modules they patch load (src/main/enter-roles.ts); `redactPath` cuts credentials. */
export function startTracing(config: TracingConfig, redactPath: (path: string) => string): Tracing {
  const resource = resourceFromAttributes({ 'service.name': config.serviceName });
  const processor = new BatchSpanProcessor({ exporter: exporterOf(config) });
  const provider = new TracerProvider({ resource, sampler: samplerOf(config.sampler), spanProcessors: [processor] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new InsidePropagator());
  trace.setGlobalTracerProvider(provider);
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        // The platform's own outgoing calls are undici's (receivers) and the exporter's.
        disableOutgoingRequestInstrumentation: true,
        ignoreIncomingRequestHook: (req) => req.url === '/metrics' || req.url === '/healthz',
        startIncomingSpanHook: (req) => {
          const path = (req.url ?? '').split('?')[0] as string;
          const shown = redactPath(path);
          return shown === path ? {} : { 'url.path': shown };
        },
      }),
      new KoaInstrumentation(),
      new UndiciInstrumentation({
        requireParentforSpans: true,
        // An endpoint's query string may hold its token: traces show the URL without it.
        startSpanHook: (request) => ({ 'url.full': `${request.origin}${request.path.replace(/[?#].*/s, '')}`, 'url.query': '' }),
      }),
      // Statements show their shape only: every value is `?` (documents hold sealed secrets and bodies).
      // Background commands (lease renewals, sweeps, cache followers) make no traces of their own.
      new MongoDBInstrumentation({ enhancedDatabaseReporting: false, dbStatementSerializer: shapeOnly, requireParentSpan: true }),
    ],
  });
  enableSpans((active) => getRPCMetadata(active)?.span);
  return {
    clientInterceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] },
    activityInterceptor: (ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) }),
    workflowInterceptorModule: require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors'),
    workflowSinks: { exporter: makeWorkflowExporter(workflowSpanProcessor(processor) as never, resource as never) } as never,
    shutdown: () => provider.shutdown(),
  };
}

function exporterOf(config: TracingConfig): SpanExporter {
  if (config.exporter.kind === 'console') return new ConsoleSpanExporter();
  const { url, protocol } = config.exporter;
  return protocol === 'http/json' ? new OtlpJsonExporter({ url }) : new OtlpProtoExporter({ url });
}

const SAMPLER_BY_NAME: Record<SamplerName, (ratio: number) => Sampler> = {
  always_on: () => new AlwaysOnSampler(),
  always_off: () => new AlwaysOffSampler(),
  traceidratio: (ratio) => new TraceIdRatioBasedSampler(ratio),
  parentbased_always_on: () => new ParentBasedSampler({ root: new AlwaysOnSampler() }),
  parentbased_always_off: () => new ParentBasedSampler({ root: new AlwaysOffSampler() }),
  parentbased_traceidratio: (ratio) => new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) }),
};

export function samplerOf({ name, ratio }: TracingConfig['sampler']): Sampler {
  return SAMPLER_BY_NAME[name](ratio);
}

/** W3C trace context, except into calls made under NO_PROPAGATION (spans.ts: POSTs to receivers). */
class InsidePropagator extends W3CTraceContextPropagator {
  override inject(ctx: Context, carrier: unknown, setter: TextMapSetter): void {
    if (ctx.getValue(NO_PROPAGATION) !== true) super.inject(ctx, carrier, setter);
  }
}

function shapeOnly(command: Record<string, unknown>): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(command, (_key, value: unknown) => {
    if (typeof value !== 'object' || value === null) return '?';
    if (seen.has(value)) return '[Circular]';
    seen.add(value);
    return value;
  });
}
