import { withoutOtelVariables } from '../../../src/infra/embedded-servers';

describe('the environment of the embedded servers', () => {
  it("carries none of the platform's OTEL variables (the Temporal server would trace itself, and refuses OTEL_TRACES_EXPORTER=console)", () => {
    expect(withoutOtelVariables({ PATH: '/bin', OTEL_TRACES_EXPORTER: 'console', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://jaeger:4318', HOME: '/root' })).toEqual({ PATH: '/bin', HOME: '/root' });
  });
});
