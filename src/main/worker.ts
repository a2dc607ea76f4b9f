/** `npm run worker`: the delivery worker alone. */
import { enterRoles } from './enter-roles';

enterRoles({ api: false, worker: true });
