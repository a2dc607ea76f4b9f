/** The tenants' portal page: one per account, `/portal/<account id>`, so that its headers (frame-ancestors) are the account's before any script runs. */
export const PORTAL_PATH = '/portal';

const PAGE_PATH = /^\/portal\/(acct_[0-9A-Za-z]{24})$/;

/** The account's page (a session's link puts the token in its fragment, which no browser sends to a server). */
export function portalPagePath(accountId: string): string {
  return `${PORTAL_PATH}/${accountId}`;
}

/** The account a portal page path names, or undefined for any other path. */
export function accountOfPortalPath(path: string): string | undefined {
  return PAGE_PATH.exec(path)?.[1];
}

export function isPortalPath(path: string): boolean {
  return path === PORTAL_PATH || path.startsWith(`${PORTAL_PATH}/`);
}
