import { WorkflowNotFoundError } from '@temporalio/client';

/** What `work` gives, or `otherwise` when its workflow does not exist (never started, past retention) or fails with `alsoOn`. */
export async function unlessNotFound<T, O>(work: Promise<T>, otherwise: O, ...alsoOn: (abstract new (...args: never[]) => Error)[]): Promise<T | O> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError || alsoOn.some((type) => err instanceof type)) return otherwise;
    throw err;
  }
}
