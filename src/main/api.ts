/** `npm run api`: the HTTP API alone (scale it apart from workers). */
import { enterRoles } from './enter-roles';

enterRoles({ api: true, worker: false });
