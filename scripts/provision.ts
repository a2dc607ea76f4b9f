/**
 * `npm run provision`: fetches or builds the embedded servers, the test server and the test brokers once (cached in
 * .tools/; see src/infra/provision.ts). With TEMPORAL_ADDRESS / MONGODB_URI set, the matching server
 * is not needed and not provided.
 */
import { provision } from '../src/infra/provision';

provision({
  need: {
    temporalCli: !process.env.TEMPORAL_ADDRESS,
    ferretDb: !process.env.MONGODB_URI,
    temporalTestServer: true,
    rabbitMq: true,
    kafka: true,
    elasticMq: true,
  },
}).catch((err: unknown) => {
  process.stderr.write(`[provision] failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
