/** `npm run api`: the HTTP API alone (scale it apart from workers). */
import { enterRoles } from './enter-roles';

enterRoles({ api: true, worker: false }).catch((err) => {
  process.stderr.write(`start-up failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
