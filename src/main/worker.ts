/** `npm run worker`: the delivery worker alone. */
import { enterRoles } from './enter-roles';

enterRoles({ api: false, worker: true }).catch((err) => {
  process.stderr.write(`start-up failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
