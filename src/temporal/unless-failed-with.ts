/** What `work` gives, or `otherwise` when it fails with one of `types` (a workflow not found, one already started...). */
export async function unlessFailedWith<T, O>(work: Promise<T>, otherwise: O, ...types: (abstract new (...args: never[]) => Error)[]): Promise<T | O> {
  try {
    return await work;
  } catch (err) {
    if (types.some((type) => err instanceof type)) return otherwise;
    throw err;
  }
}
