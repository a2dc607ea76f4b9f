/** A redirect's URL names a notice by key, never its text, so nothing a link carries is reflected. */
export const NOTICES = {
  'signed-out': 'You have signed out.',
  'welcome': 'Your account is ready. Create an API key to get started.',
  'password-set': 'Your password is set and you are signed in. Next time, sign in with your email and this password.',
  'key-revoked': 'The key was revoked. Requests made with it now get 401.',
  'key-hidden': 'A full key is shown only once. If you lost it, create a new key and revoke the old one.',
  'endpoint-created': 'Endpoint added. Reveal its signing secret to verify deliveries.',
  'endpoint-updated': 'Endpoint saved.',
  'delivery-settings-saved': 'Delivery settings saved.',
  'endpoint-disabled': 'Endpoint disabled: it receives nothing and its pending retries were cancelled.',
  'endpoint-enabled': 'Endpoint enabled.',
  'endpoint-paused': 'Deliveries paused: new events are still accepted, and each delivery that comes due waits until you resume.',
  'endpoint-resumed': 'Deliveries resumed: every delivery that waited makes its attempt now.',
  'endpoint-deleted': 'Endpoint deleted. Its pending retries were cancelled.',
  'tenant-deleted': 'Tenant deleted: its endpoints are gone and their pending retries were cancelled.',
  'secret-rotated': 'Signing secret rotated. Every later attempt is signed with the new secret; the old one keeps signing webhook-signature until its grace period ends.',
  'event-sent': 'Test event sent. Deliveries appear below as they happen; refresh to update.',
  'retry-started': 'Retry started: a new round begins at attempt 1.',
  'retry-now-started': 'The next attempt is being made now, without waiting for its timer. Refresh to see its outcome.',
  'delivery-cancelling': 'Cancelling: no further attempt is made. An attempt already in flight finishes and is recorded first; refresh to see the delivery cancelled.',
  'retry-now-woken': 'Every delivery to this endpoint that waited for its next attempt makes it now. Follow them on their events.',
  'retry-now-none': 'No delivery to this endpoint was waiting for its next attempt (deliveries that wait for a paused endpoint are woken by resuming it).',
  'retry-now-more': 'The first waiting deliveries to this endpoint make their next attempt now; more may wait. Go on with the button below.',
  'portal-settings-saved': 'Portal settings saved. They apply from the next time the portal is opened.',
  'recovery-started': 'Recovery started: every failed or cancelled delivery since that time begins a new round. Refresh the events to follow them.',
} as const;

export type NoticeKey = keyof typeof NOTICES;
