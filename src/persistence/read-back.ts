/** The fields of a stored document that `fields` names, which must name every field of T: a storage-only field never leaks. */
export function readBack<T>(doc: object, fields: Record<keyof T, true>): T {
  return Object.fromEntries(Object.entries(doc).filter(([k]) => Object.hasOwn(fields, k))) as T;
}
