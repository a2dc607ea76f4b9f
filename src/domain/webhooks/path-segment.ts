/** `.` and `..` are path segments a URL client resolves away: an id or a name that is one can never be named in a path. */
export const isDotSegment = (segment: string): boolean => segment === '.' || segment === '..';
