import { ValidationError } from '../domain/errors';

/** Opaque cursors: base64url JSON, so clients cannot depend on what is inside. */
export function encodeCursor(value: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

export function decodeCursor<T>(cursor: string, isValid: (v: unknown) => v is T): T {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (isValid(value)) return value;
  } catch {
    /* fall through */
  }
  throw new ValidationError('cursor is not valid.', [{ path: 'query.cursor', message: 'Invalid cursor' }], 'invalid_cursor');
}
