import type { z } from 'zod';
import type { ErrorDetail } from '../../domain/errors';

/** Messages name no subject: `details[].path` is it, and `validationSummary` joins both. */

const KIND: Record<string, string> = {
  object: 'a JSON object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
};

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'boolean') return 'a boolean';
  return typeof value;
}

const plural = (n: number | bigint, one: string, many: string) => `${n} ${Number(n) === 1 ? one : many}`;

export function humanIssueMessage(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return 'is required';
      const wanted = KIND[issue.expected] ?? issue.expected;
      // Query strings coerced to numbers: "abc" arrives as NaN, and a fraction is still a number.
      if (typeof issue.input === 'number') return `must be ${wanted}`;
      return `must be ${wanted}, not ${kindOf(issue.input)}`;
    }
    case 'too_small': {
      const min = issue.minimum;
      if (issue.origin === 'string') return Number(min) <= 1 ? 'must not be empty' : `must be at least ${plural(min, 'character', 'characters')} long`;
      if (issue.origin === 'array') return `must contain at least ${plural(min, 'item', 'items')}`;
      return issue.inclusive === false ? `must be greater than ${min}` : `must be ${min} or more`;
    }
    case 'too_big': {
      const max = issue.maximum;
      if (issue.origin === 'string') return `must be at most ${plural(max, 'character', 'characters')} long`;
      if (issue.origin === 'array') return `must contain at most ${plural(max, 'item', 'items')}`;
      return issue.inclusive === false ? `must be less than ${max}` : `must be ${max} or less`;
    }
    case 'invalid_format':
      if (issue.format === 'regex') return 'is not in the expected format';
      return `must be a valid ${issue.format}`;
    case 'invalid_value':
      return `must be one of: ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'unrecognized_keys':
      return issue.keys.length === 1 ? `has an unknown field "${issue.keys[0]}"` : `has unknown fields ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    default:
      return 'is not valid';
  }
}

/** Where a value came from, as the subject of a sentence. */
export type InputPart = 'body' | 'query' | 'path';

const ROOT_SUBJECT: Record<InputPart, string> = { body: 'The request body', query: 'The query string', path: 'The path' };

/** zod issues as the `details` of a 400: dotted path (prefixed `query.`/`path.` outside the body) and message. */
export function issueDetails(error: z.ZodError, part: InputPart): ErrorDetail[] {
  return error.issues.map((issue) => ({
    path: [part === 'body' ? undefined : part, ...issue.path.map(String)].filter((p) => p !== undefined && p !== '').join('.'),
    message: issue.message,
  }));
}

/** The `error` sentence: the first problem in words, and how many more `details` lists. */
export function validationSummary(error: z.ZodError, part: InputPart): string {
  const [first] = error.issues;
  const field = first.path.map(String).join('.');
  const subject = field === '' ? ROOT_SUBJECT[part] : part === 'body' ? field : `${part === 'query' ? 'Query parameter' : 'Path parameter'} ${field}`;
  const more = error.issues.length - 1;
  const tail = more > 0 ? ` (and ${plural(more, 'more problem', 'more problems')}, see details)` : '';
  return `${subject} ${first.message}${tail}.`;
}
