/** `npm start`: the whole platform (API + worker), with embedded servers when no addresses are given. */
import { enterRoles } from './enter-roles';

enterRoles({ api: true, worker: true });
