import { z } from 'zod';
import { humanIssueMessage, issueDetails, validationSummary } from '../../../src/transport/http/validation-messages';

/** zod's findings in words for people, with the path kept. */
const messagesOf = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value, { error: humanIssueMessage });
  if (result.success) throw new Error('expected a failure');
  return result.error;
};

describe('validation messages', () => {
  const schema = z.object({
    data: z.object({}),
    name: z.string().min(1).max(5),
    code: z.string().min(3),
    count: z.number().int().min(1).max(10),
    ratio: z.number().positive(),
    tags: z.array(z.string()).min(1).max(2),
    mode: z.enum(['a', 'b']),
    on: z.boolean(),
  });
  const good = { data: {}, name: 'x', code: 'abc', count: 1, ratio: 1, tags: ['t'], mode: 'a', on: true };
  const message = (patch: Record<string, unknown>) => {
    const err = messagesOf(schema, { ...good, ...patch });
    return Object.fromEntries(issueDetails(err, 'body').map((d) => [d.path, d.message]));
  };

  it.each([
    [{ data: [] }, 'data', 'must be a JSON object, not an array'],
    [{ data: null }, 'data', 'must be a JSON object, not null'],
    [{ data: undefined }, 'data', 'is required'],
    [{ name: '' }, 'name', 'must not be empty'],
    [{ name: 'toolong' }, 'name', 'must be at most 5 characters long'],
    [{ code: 'ab' }, 'code', 'must be at least 3 characters long'],
    [{ count: 1.5 }, 'count', 'must be a whole number'],
    [{ count: NaN }, 'count', 'must be a number'],
    [{ count: 0 }, 'count', 'must be 1 or more'],
    [{ count: 11 }, 'count', 'must be 10 or less'],
    [{ ratio: 0 }, 'ratio', 'must be greater than 0'],
    [{ ratio: '3' }, 'ratio', 'must be a number, not a string'],
    [{ tags: [] }, 'tags', 'must contain at least 1 item'],
    [{ tags: ['a', 'b', 'c'] }, 'tags', 'must contain at most 2 items'],
    [{ mode: 'c' }, 'mode', 'must be one of: a, b'],
    [{ on: 'yes' }, 'on', 'must be true or false, not a string'],
  ])('%j → %s %s', (patch, path, text) => {
    expect(message(patch)).toEqual({ [path]: text });
  });

  it('unknown fields of a strict object are named', () => {
    const err = messagesOf(z.strictObject({ a: z.number() }), { a: 1, b: 2 });
    expect(issueDetails(err, 'body')).toEqual([{ path: '', message: 'has an unknown field "b"' }]);
    expect(validationSummary(err, 'body')).toBe('The request body has an unknown field "b".');
  });

  it("a schema's own message wins over the map", () => {
    const err = messagesOf(z.object({ q: z.number({ error: 'must be a quantity' }) }), { q: 'x' });
    expect(issueDetails(err, 'body')).toEqual([{ path: 'q', message: 'must be a quantity' }]);
  });

  it('the summary names the first problem, where it was, and how many more there are', () => {
    const err = messagesOf(schema, { ...good, data: [], name: '' });
    expect(validationSummary(err, 'body')).toBe('data must be a JSON object, not an array (and 1 more problem, see details).');
    const query = messagesOf(z.object({ limit: z.coerce.number() }), { limit: 'abc' });
    expect(validationSummary(query, 'query')).toBe('Query parameter limit must be a number.');
    expect(issueDetails(query, 'query')).toEqual([{ path: 'query.limit', message: 'must be a number' }]);
    expect(validationSummary(messagesOf(z.object({ a: z.string() }), undefined), 'body')).toBe('The request body is required.');
  });
});
