import { INVITE_PATH } from '../../services/dashboard-invite-service';

/** Paths whose last segment is a credential: an invite link's token sets a password. */
const SECRET_SEGMENT_PATHS = [INVITE_PATH];

export function loggedPath(path: string): string {
  for (const prefix of SECRET_SEGMENT_PATHS) {
    if (path.startsWith(`${prefix}/`)) return `${prefix}/:token`;
  }
  return path;
}
