import { z } from 'zod';

/** Tracing from OpenTelemetry's standard variables (docs/operating.md#traces): off unless an exporter is asked for. */

export const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;
export type SamplerName = (typeof SAMPLERS)[number];

export type TracingConfig = NonNullable<ReturnType<typeof tracingConfigFrom>>;

/** The SDK's default when nothing is said: OTLP over HTTP on the local collector. */
const DEFAULT_OTLP_ENDPOINT = 'http://localhost:4318';
export const DEFAULT_SERVICE_NAME = 'webhook-platform';

/** An empty value (`VAR=` in an env file) is as if unset. */
export const blankIsUnset = <T extends z.ZodType>(schema: T) => z.literal('').transform(() => undefined).or(schema.optional());
export const httpUrl = z
  .string()
  .trim()
  .refine((v) => /^https?:\/\/[^\s/]+(\/\S*)?$/.test(v), 'must be an http:// or https:// URL');
const protocol = z.enum(['http/protobuf', 'http/json', 'grpc']).refine((v) => v !== 'grpc', 'grpc is not supported here: use http/protobuf (port 4318)');

export const TracingEnvSchema = z.object({
  OTEL_SDK_DISABLED: blankIsUnset(z.enum(['true', 'false'])),
  OTEL_TRACES_EXPORTER: blankIsUnset(z.enum(['otlp', 'console', 'none'], { message: 'must be otlp, console or none' })),
  OTEL_EXPORTER_OTLP_ENDPOINT: blankIsUnset(httpUrl),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: blankIsUnset(httpUrl),
  OTEL_EXPORTER_OTLP_PROTOCOL: blankIsUnset(protocol),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: blankIsUnset(protocol),
  OTEL_SERVICE_NAME: blankIsUnset(z.string().trim().min(1).max(200)),
  OTEL_TRACES_SAMPLER: blankIsUnset(z.enum(SAMPLERS, { message: `must be one of ${SAMPLERS.join(', ')}` })),
  OTEL_TRACES_SAMPLER_ARG: blankIsUnset(z.coerce.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1')),
});

/** null: tracing is off (no OpenTelemetry code is loaded, src/main/enter-roles.ts). */
export function tracingConfigFrom(e: z.infer<typeof TracingEnvSchema>) {
  if (e.OTEL_SDK_DISABLED === 'true' || e.OTEL_TRACES_EXPORTER === 'none') return null;
  const endpointGiven = e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? e.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (e.OTEL_TRACES_EXPORTER === undefined && endpointGiven === undefined) return null;
  // `ratio` is the sampled share for the ratio samplers.
  const sampler = { name: e.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on', ratio: e.OTEL_TRACES_SAMPLER_ARG ?? 1 };
  const serviceName = e.OTEL_SERVICE_NAME ?? DEFAULT_SERVICE_NAME;
  if (e.OTEL_TRACES_EXPORTER === 'console') return { serviceName, exporter: { kind: 'console' as const }, sampler };
  // The signal-specific endpoint is used as given; the general one is a base the path is added to.
  const url = e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? `${(e.OTEL_EXPORTER_OTLP_ENDPOINT ?? DEFAULT_OTLP_ENDPOINT).replace(/\/+$/, '')}/v1/traces`;
  const protocol = e.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? e.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf';
  return { serviceName, exporter: { kind: 'otlp' as const, url, protocol }, sampler };
}
