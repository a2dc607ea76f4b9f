import { z } from 'zod';
import { decodeCursor, encodeCursor } from '../../../src/services/pagination';

/** Opaque cursors: what a list hands out decodes back; anything else, even well-formed JSON, is a 400 `invalid_cursor`. */
describe('cursors', () => {
  const Position = z.object({ s: z.number().int().nonnegative() });
  const asCursor = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

  it('a cursor decodes to the position it was made from', () => {
    expect(decodeCursor(encodeCursor({ s: 42 }), Position)).toEqual({ s: 42 });
  });

  it.each([
    ['not base64url JSON', 'garbage!'],
    ['JSON of another shape', asCursor({ after: 'x' })],
    ['a negative number', asCursor({ s: -1 })],
    ['a fraction', asCursor({ s: 1.5 })],
    ['a number past the safe integers', asCursor({ s: 2 ** 53 })],
    ['a number as a string', asCursor({ s: '3' })],
    ['null', asCursor(null)],
  ])('%s is refused with invalid_cursor, naming where it came from', (_, cursor) => {
    expect(() => decodeCursor(cursor, Position, 'cursor')).toThrow(expect.objectContaining({ code: 'invalid_cursor', data: { details: [{ path: 'cursor', message: 'Invalid cursor' }] } }));
  });
});
