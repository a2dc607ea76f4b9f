/** `npm start`: the whole platform (API + worker), with embedded servers when no addresses are given. */
import { enterRoles } from './enter-roles';

enterRoles({ api: true, worker: true }).catch((err) => {
  process.stderr.write(`start-up failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
