import { asyncLocalStorage } from '@temporalio/activity';

/** The running activity's context; outside an activity (unit tests) there is none. */
export const activityContext = () => asyncLocalStorage.getStore();

/** Which try of its activity this is: 1 outside an activity. */
export function activityAttempt(): number {
  return activityContext()?.info.attempt ?? 1;
}
