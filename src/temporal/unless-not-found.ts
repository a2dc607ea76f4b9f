import { WorkflowNotFoundError } from '@temporalio/client';

/** What `work` gives, or `otherwise` when its workflow does not exist (never started, or past retention). */
export async function unlessNotFound<T, O>(work: Promise<T>, otherwise: O): Promise<T | O> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return otherwise;
    throw err;
  }
}
