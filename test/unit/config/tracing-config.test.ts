import { loadConfig } from '../../../src/config/config';
import { samplerOf } from '../../../src/infra/tracing/sampling';

describe('loadConfig: tracing (OpenTelemetry standard variables)', () => {
  it('is off when no OTEL variable asks for an exporter', () => {
    expect(loadConfig({}).tracing).toBeNull();
    expect(loadConfig({ OTEL_SERVICE_NAME: 'api', OTEL_TRACES_SAMPLER: 'always_on' }).tracing).toBeNull();
  });

  it('is on with OTEL_EXPORTER_OTLP_ENDPOINT: OTLP over HTTP (protobuf) to its /v1/traces, every root sampled', () => {
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://jaeger:4318/' }).tracing).toEqual({
      serviceName: 'webhook-platform',
      exporter: { kind: 'otlp', url: 'http://jaeger:4318/v1/traces', protocol: 'http/protobuf' },
      sampler: { name: 'parentbased_always_on', ratio: 1 },
    });
  });

  it('takes the traces-only endpoint as given, the protocol and the service name', () => {
    const tracing = loadConfig({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector.example/otlp/traces',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'platform-worker',
    }).tracing;
    expect(tracing?.exporter).toEqual({ kind: 'otlp', url: 'https://collector.example/otlp/traces', protocol: 'http/json' });
    expect(tracing?.serviceName).toBe('platform-worker');
  });

  it('is on with OTEL_TRACES_EXPORTER=console, printing spans, no endpoint needed', () => {
    expect(loadConfig({ OTEL_TRACES_EXPORTER: 'console' }).tracing?.exporter).toEqual({ kind: 'console' });
  });

  it('sends OTLP to the local collector when only OTEL_TRACES_EXPORTER=otlp is given', () => {
    expect(loadConfig({ OTEL_TRACES_EXPORTER: 'otlp' }).tracing?.exporter).toEqual({ kind: 'otlp', url: 'http://localhost:4318/v1/traces', protocol: 'http/protobuf' });
  });

  it('stays off with OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none, whatever the endpoint', () => {
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://jaeger:4318', OTEL_SDK_DISABLED: 'true' }).tracing).toBeNull();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://jaeger:4318', OTEL_TRACES_EXPORTER: 'none' }).tracing).toBeNull();
  });

  it('reads OTEL_TRACES_SAMPLER with its argument as the sampled share', () => {
    const tracing = loadConfig({ OTEL_TRACES_EXPORTER: 'console', OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }).tracing;
    expect(tracing?.sampler).toEqual({ name: 'parentbased_traceidratio', ratio: 0.25 });
  });

  it.each([
    ['OTEL_TRACES_SAMPLER', 'sometimes'],
    ['OTEL_TRACES_SAMPLER_ARG', '1.5'],
    ['OTEL_TRACES_SAMPLER_ARG', 'half'],
    ['OTEL_TRACES_EXPORTER', 'zipkin'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'jaeger:4318'],
    ['OTEL_EXPORTER_OTLP_PROTOCOL', 'grpc'],
  ])('refuses %s=%s at start-up', (variable, value) => {
    expect(() => loadConfig({ OTEL_TRACES_EXPORTER: 'console', [variable]: value })).toThrow(`Invalid configuration: ${variable}`);
  });
});

describe('the sampler made from the configuration', () => {
  it.each([
    ['always_on', 'AlwaysOnSampler'],
    ['always_off', 'AlwaysOffSampler'],
    ['traceidratio', 'TraceIdRatioBased{0.5}'],
    ['parentbased_always_on', 'ParentBased{root=AlwaysOnSampler'],
    ['parentbased_always_off', 'ParentBased{root=AlwaysOffSampler'],
    ['parentbased_traceidratio', 'ParentBased{root=TraceIdRatioBased{0.5}'],
  ] as const)('%s is %s', (name, description) => {
    expect(samplerOf({ name, ratio: 0.5 }).toString()).toContain(description);
  });
});
