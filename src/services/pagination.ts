import { z } from 'zod';
import { ValidationError } from '../domain/errors';

/**
 * The longest cursor a list takes back: above every cursor a list hands out (an event-type name of 256 characters makes
 * one of about 350), and still a bound on what a caller can make the API decode.
 */
export const MAX_CURSOR_LENGTH = 1024;

/** Opaque cursors: base64url JSON, so clients cannot depend on what is inside. */
export function encodeCursor(value: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** `path`: where the cursor came from, for the 400's `details`. */
export function decodeCursor<T>(cursor: string, shape: z.ZodType<T>, path = 'query.cursor'): T {
  try {
    const value = shape.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    if (value.success) return value.data;
  } catch {
    /* fall through */
  }
  throw new ValidationError('cursor is not valid.', [{ path, message: 'Invalid cursor' }], 'invalid_cursor');
}
