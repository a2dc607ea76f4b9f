import { INVITE_PATH } from '../../services/dashboard-invite-service';

/** An invite link's last segment is a credential (its token sets a password): logged as `:token`. */
export function loggedPath(path: string): string {
  return path.startsWith(`${INVITE_PATH}/`) ? `${INVITE_PATH}/:token` : path;
}
