/** Pausing an endpoint: its due deliveries wait (no attempt, no step along the schedule) until resumed. Pure: workflows use it. */

/** A paused delivery's wait for its resume signal before it looks at its endpoint again: what a lost signal costs at most. */
export const PAUSED_RECHECK_MS = 3_600_000;

/** Deliveries a resume lists at once (oldest event first), and signals at once within a page. */
export const RESUME_PAGE_SIZE = 100;
export const RESUME_SIGNALS_AT_ONCE = 10;
/** A resume's pace: its pages (and passes) this far apart, so one endpoint's resume wakes RESUME_PAGE_SIZE a second at most. */
export const RESUME_PAGE_INTERVAL_MS = 1_000;
/** Pages one resume run goes through before it continues as new, so its history stays small (a page adds about 230 events). */
export const RESUME_PAGES_PER_RUN = 10;

/** One resume per endpoint at a time: its workflow id. */
export function resumeWorkflowId(endpointId: string): string {
  return `endpoint-resume-${endpointId}`;
}
