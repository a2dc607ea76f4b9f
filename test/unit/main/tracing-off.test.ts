import { execFileSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.join(__dirname, '../../..');

/** The OpenTelemetry packages in the module cache of a fresh process once `modules` are loaded. */
function openTelemetryLoadedBy(modules: string[]): string[] {
  const script = `
    for (const m of ${JSON.stringify(modules)}) require(m);
    const names = Object.keys(require.cache).map((k) => k.match(/node_modules\\/(@opentelemetry\\/[^/]+|@temporalio\\/interceptors-opentelemetry)\\//)?.[1]).filter(Boolean);
    process.stdout.write(JSON.stringify([...new Set(names)].sort()));`;
  return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } }));
}

describe('tracing off', () => {
  it('loads no OpenTelemetry SDK, instrumentation or Temporal interceptor: the whole platform brings the API package alone', () => {
    const loaded = openTelemetryLoadedBy(['./src/main/enter-roles', './src/main/platform']);
    expect(loaded).toEqual(['@opentelemetry/api']);
  });

  it('(the check can fail) sees them once the tracing start-up is loaded', () => {
    expect(openTelemetryLoadedBy(['./src/infra/tracing/start-tracing'])).toEqual(expect.arrayContaining(['@opentelemetry/sdk-trace', '@opentelemetry/instrumentation-mongodb', '@temporalio/interceptors-opentelemetry']));
  });
});
