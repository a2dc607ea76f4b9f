import { context, propagation, trace } from '@opentelemetry/api';
import type { Context, TextMapGetter, TextMapSetter } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { getRPCMetadata, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { KoaInstrumentation, KoaLayerType } from '@opentelemetry/instrumentation-koa';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, ConsoleSpanExporter, SpanExporter, TracerProvider } from '@opentelemetry/sdk-trace';
import {
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type { IncomingMessage } from 'node:http';
import type { ActivityInterceptorsFactory, InjectedSinks } from '@temporalio/worker';
import type { TracingConfig } from '../../config/tracing-config';
import { isEdgeCarrier, linkCaller, markEdge } from './edge';
import { enableSpans, NO_PROPAGATION } from './spans';
import { activityInterceptorWhenSampled } from './sampled-activities';
import { edgeDecision, neverSamples, platformSampler, samplerOf } from './sampling';
import { statementShape } from './statement-shape';
import type { WorkflowSpanSinks } from './sampled-workflow-interceptors';
import { workflowSpanSinks } from './workflow-span-sink';

/** What the Temporal client and worker add when tracing is on (src/temporal/client.ts, worker.ts). */
export interface Tracing {
  clientInterceptors: { workflow: OpenTelemetryWorkflowClientInterceptor[] };
  activityInterceptor: ActivityInterceptorsFactory;
  /** Bundled into the workflow code: a traced run's spans, sent out through `workflowSinks`; none when no call can be sampled. */
  workflowInterceptorModule?: string;
  workflowSinks: InjectedSinks<WorkflowSpanSinks> | Record<string, never>;
  /** Exports what is still buffered; within the stop's budget. */
  shutdown(): Promise<void>;
}

/** The SDK and the instrumentations, started before the modules they patch load (src/main/enter-roles.ts); `redactPath` cuts credentials. */
export function startTracing(config: TracingConfig, redactPath: (path: string) => string): Tracing {
  const resource = resourceFromAttributes({ 'service.name': config.serviceName });
  const processor = new BatchSpanProcessor({ exporter: exporterOf(config) });
  const provider = new TracerProvider({ resource, sampler: platformSampler(), spanProcessors: [processor] });
  const traced = edgeDecision(samplerOf(config.sampler));
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new InsidePropagator());
  trace.setGlobalTracerProvider(provider);
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        // The platform's own outgoing calls are undici's (receivers) and the exporter's.
        disableOutgoingRequestInstrumentation: true,
        // A call the edge does not pick runs with tracing suppressed: no span, here or below it.
        ignoreIncomingRequestHook: (req) => req.url === '/metrics' || req.url === '/healthz' || !traced(),
        startIncomingSpanHook: (req) => {
          markEdge(req);
          const path = (req.url ?? '').split('?')[0] as string;
          const shown = redactPath(path);
          return shown === path ? {} : { 'url.path': shown };
        },
        // Outgoing requests are not instrumented: every request seen here is an incoming one.
        requestHook: (span, req) => linkCaller(span, req as IncomingMessage),
      }),
      // The routes' layers (authentication, limits, the handler); the app-wide middleware (request id,
      // error mapping, body parsing) would add a span each to every traced call and tell little.
      new KoaInstrumentation({ ignoreLayersType: [KoaLayerType.MIDDLEWARE] }),
      new UndiciInstrumentation({
        requireParentforSpans: true,
        // A POST of an attempt not traced is let alone: no URL parsed, no span, nothing kept per request.
        ignoreRequestHook: () => trace.getActiveSpan()?.isRecording() !== true,
        // An endpoint's query string may hold its token: traces show the URL without it.
        startSpanHook: (request) => ({ 'url.full': `${request.origin}${request.path.replace(/[?#].*/s, '')}`, 'url.query': '' }),
      }),
      // Background commands (lease renewals, sweeps, cache followers) make no traces of their own.
      new MongoDBInstrumentation({ enhancedDatabaseReporting: false, dbStatementSerializer: statementShape, requireParentSpan: true }),
    ],
  });
  enableSpans((active) => getRPCMetadata(active)?.span);
  const shutdown = () => provider.shutdown();
  // Nothing is ever sampled: Temporal's interceptors would only carry "not sampled" (and bundled
  // into the workflow code, they cost every workflow activation), so none is installed.
  if (neverSamples(config.sampler)) return { clientInterceptors: { workflow: [] }, activityInterceptor: () => ({}), workflowSinks: {}, shutdown };
  return {
    clientInterceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] },
    activityInterceptor: (ctx) => ({ inbound: activityInterceptorWhenSampled(new OpenTelemetryActivityInboundInterceptor(ctx)), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) }),
    workflowInterceptorModule: require.resolve('./sampled-workflow-interceptors'),
    workflowSinks: workflowSpanSinks(processor, resource),
    shutdown,
  };
}

function exporterOf(config: TracingConfig): SpanExporter {
  if (config.exporter.kind === 'console') return new ConsoleSpanExporter();
  const { url, protocol } = config.exporter;
  return protocol === 'http/json' ? new OtlpJsonExporter({ url }) : new OtlpProtoExporter({ url });
}

/** W3C trace context inside the platform only: not into calls made under NO_PROPAGATION (spans.ts: POSTs to receivers), nor out of a caller's request (edge.ts). */
class InsidePropagator extends W3CTraceContextPropagator {
  override inject(ctx: Context, carrier: unknown, setter: TextMapSetter): void {
    if (ctx.getValue(NO_PROPAGATION) !== true) super.inject(ctx, carrier, setter);
  }

  override extract(ctx: Context, carrier: unknown, getter: TextMapGetter): Context {
    return isEdgeCarrier(carrier) ? ctx : super.extract(ctx, carrier, getter);
  }
}
