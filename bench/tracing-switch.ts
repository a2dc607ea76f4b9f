import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * BENCH_TRACING, what tracing costs bench:delivery's platform:
 *   absent  (default) no OTEL variable reaches it: no OpenTelemetry SDK code is even loaded;
 *   off     the SDK and every instrumentation loaded and patching, sampler always_off (nothing recorded);
 *   sampled one trace in ten (parentbased_traceidratio 0.1, docker-compose.yml's default), exported
 *           as `on` does;
 *   on      every trace sampled (always_on) and exported over OTLP/HTTP (protobuf) to a sink in this
 *           process that reads and drops each export, so the platform pays for recording and sending.
 */
const MODES = ['absent', 'off', 'sampled', 'on'] as const;
export type TracingMode = (typeof MODES)[number];
/** The share of traces `sampled` records. */
const SAMPLED_RATIO = 0.1;

const OTEL_VARIABLES = [
  'OTEL_SDK_DISABLED',
  'OTEL_TRACES_EXPORTER',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
  'OTEL_TRACES_SAMPLER',
  'OTEL_TRACES_SAMPLER_ARG',
];

const SAMPLER_OF: Record<Exclude<TracingMode, 'absent'>, { OTEL_TRACES_SAMPLER: string; OTEL_TRACES_SAMPLER_ARG?: string }> = {
  off: { OTEL_TRACES_SAMPLER: 'always_off' },
  sampled: { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: String(SAMPLED_RATIO) },
  on: { OTEL_TRACES_SAMPLER: 'always_on' },
};

export async function tracingSwitch(value = process.env.BENCH_TRACING ?? 'absent') {
  if (!(MODES as readonly string[]).includes(value)) throw new Error(`BENCH_TRACING must be ${MODES.join(', ')} (got ${value})`);
  const mode = value as TracingMode;
  // Blank is unset for the platform's configuration: an OTEL variable of this shell does not leak in.
  const unset = Object.fromEntries(OTEL_VARIABLES.map((name) => [name, '']));
  if (mode === 'absent') return { mode, env: unset, describe: () => 'tracing absent (no OTEL variable: SDK not loaded)', close: async () => undefined };

  let exports = 0;
  let bytes = 0;
  const sink = http.createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      exports++;
      res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const env = {
    ...unset,
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(sink.address() as AddressInfo).port}`,
    OTEL_SERVICE_NAME: 'bench-delivery',
    ...SAMPLER_OF[mode],
  };
  return {
    mode,
    env,
    describe: () =>
      mode === 'off'
        ? `tracing loaded but off (sampler always_off): ${exports} exports`
        : `tracing ${mode} (${mode === 'on' ? 'always_on' : `parentbased_traceidratio ${SAMPLED_RATIO}`}, OTLP/HTTP protobuf to a local sink): ${exports} exports, ${(bytes / 2 ** 20).toFixed(1)} MiB`,
    close: () => new Promise<void>((resolve) => sink.close(() => resolve())),
  };
}
