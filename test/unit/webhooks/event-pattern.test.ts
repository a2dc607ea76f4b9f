import {
  DEFAULT_EVENT_PATTERNS,
  EVENT_TYPE_MAX_LENGTH,
  EVENT_TYPE_REGEX,
  MAX_EVENT_PATTERNS,
  isValidEventType,
  matchesAny,
  matchesEventType,
  parseEventPattern,
  validateEventPattern,
  validateEventPatterns,
} from '../../../src/domain/webhooks/event-pattern';

describe('event type limits', () => {
  it('exports the contract limits: 1..256 characters of [A-Za-z0-9_.:-]', () => {
    expect(EVENT_TYPE_MAX_LENGTH).toBe(256);
    expect(EVENT_TYPE_REGEX.test('a')).toBe(true);
  });

  it('accepts every allowed character class', () => {
    expect(isValidEventType('AZaz09_.:-')).toBe(true);
  });

  it.each(['user.created', 'invoice.payment_failed', 'order:v2.shipped', 'a-b', 'X'])('accepts the type %s', (type) => {
    expect(isValidEventType(type)).toBe(true);
  });

  it('accepts a type of exactly 256 characters', () => {
    expect(isValidEventType('a'.repeat(256))).toBe(true);
  });

  it('refuses a type of 257 characters', () => {
    expect(isValidEventType('a'.repeat(257))).toBe(false);
  });

  it('refuses the empty type', () => {
    expect(isValidEventType('')).toBe(false);
  });

  it.each(['user created', 'user/created', 'user*', 'é', 'user\n', 'user\r\nX-Evil: 1', 'a,b', 'user.created '])(
    'refuses the type %j with a character outside the set',
    (type) => {
      expect(isValidEventType(type)).toBe(false);
    },
  );

  it.each([null, undefined, 42, {}, ['user.created']])('refuses the non-string type %p', (type) => {
    expect(isValidEventType(type)).toBe(false);
  });
});

describe('validateEventPattern', () => {
  it('accepts * as the wildcard', () => {
    expect(validateEventPattern('*')).toEqual({ ok: true, pattern: { kind: 'all' } });
  });

  it('accepts <prefix>.* as a prefix wildcard', () => {
    expect(validateEventPattern('user.*')).toEqual({ ok: true, pattern: { kind: 'prefix', prefix: 'user' } });
  });

  it('accepts a nested prefix wildcard', () => {
    expect(validateEventPattern('user.profile.*')).toEqual({ ok: true, pattern: { kind: 'prefix', prefix: 'user.profile' } });
  });

  it('accepts an exact type', () => {
    expect(validateEventPattern('user.created')).toEqual({ ok: true, pattern: { kind: 'exact', type: 'user.created' } });
  });

  it('accepts an exact type without dots', () => {
    expect(validateEventPattern('ping')).toEqual({ ok: true, pattern: { kind: 'exact', type: 'ping' } });
  });

  it('accepts an exact type of 256 characters', () => {
    expect(validateEventPattern('a'.repeat(256)).ok).toBe(true);
  });

  it('accepts a prefix wildcard whose prefix is 256 characters', () => {
    expect(validateEventPattern(`${'a'.repeat(256)}.*`).ok).toBe(true);
  });

  it.each([
    ['', 'empty'],
    ['user*', 'star glued to a name'],
    ['*.created', 'leading wildcard segment'],
    ['user.', 'trailing dot'],
    ['user..*', 'prefix ending with a dot'],
    ['.*', 'empty prefix'],
    ['**', 'double star'],
    ['*.*', 'star prefix'],
    ['user.*.created', 'wildcard in the middle'],
    ['user.*.*', 'two wildcards'],
    ['user.**', 'double star suffix'],
    ['user.*x', 'text after the wildcard'],
    ['user *', 'space'],
    ['user created', 'space in exact type'],
    [' *', 'leading space'],
    ['* ', 'trailing space'],
    ['a'.repeat(257), 'exact type too long'],
    [`${'a'.repeat(257)}.*`, 'prefix too long'],
    ['usér.*', 'non-ASCII prefix'],
  ])('refuses %j (%s)', (pattern) => {
    const result = validateEventPattern(pattern);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message.length).toBeGreaterThan(0);
  });

  it.each([null, undefined, 1, {}, ['*']])('refuses the non-string pattern %p', (pattern) => {
    expect(validateEventPattern(pattern).ok).toBe(false);
  });

  it('keeps error messages short for huge patterns', () => {
    const result = validateEventPattern(`${'x'.repeat(10_000)}*`);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message.length).toBeLessThan(300);
  });

  it('parseEventPattern returns null for an invalid pattern', () => {
    expect(parseEventPattern('user*')).toBeNull();
  });
});

describe('validateEventPatterns (the endpoint events list)', () => {
  it('defaults to ["*"] when omitted (constant for callers)', () => {
    expect(DEFAULT_EVENT_PATTERNS).toEqual(['*']);
    expect(Object.isFrozen(DEFAULT_EVENT_PATTERNS)).toBe(true);
  });

  it('accepts a list of valid patterns and returns a copy', () => {
    const input = ['*', 'user.*', 'invoice.paid'];
    const result = validateEventPatterns(input);
    expect(result).toEqual({ ok: true, patterns: input });
    if (result.ok) expect(result.patterns).not.toBe(input);
  });

  it('refuses an empty list', () => {
    expect(validateEventPatterns([])).toEqual({ ok: false, issues: [{ index: null, message: expect.any(String) }] });
  });

  it('refuses a value that is not an array', () => {
    expect(validateEventPatterns('*')).toEqual({ ok: false, issues: [{ index: null, message: expect.any(String) }] });
  });

  it('accepts exactly 100 patterns', () => {
    expect(MAX_EVENT_PATTERNS).toBe(100);
    expect(validateEventPatterns(Array.from({ length: 100 }, (_, i) => `t${i}`)).ok).toBe(true);
  });

  it('refuses 101 patterns', () => {
    expect(validateEventPatterns(Array.from({ length: 101 }, (_, i) => `t${i}`)).ok).toBe(false);
  });

  it('reports every invalid pattern with its index', () => {
    const result = validateEventPatterns(['user.*', 'user*', 'ok', '', 7]);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((issue) => issue.index)).toEqual([1, 3, 4]);
  });
});

describe('matchesEventType', () => {
  it('* matches every event type', () => {
    for (const type of ['user.created', 'a', 'user', 'x.y.z', 'user.']) expect(matchesEventType('*', type)).toBe(true);
  });

  it('user.* matches user.created', () => {
    expect(matchesEventType('user.*', 'user.created')).toBe(true);
  });

  it('user.* matches the nested user.profile.updated', () => {
    expect(matchesEventType('user.*', 'user.profile.updated')).toBe(true);
  });

  it('user.* does not match user', () => {
    expect(matchesEventType('user.*', 'user')).toBe(false);
  });

  it('user.* does not match username.created', () => {
    expect(matchesEventType('user.*', 'username.created')).toBe(false);
  });

  it('user.* matches user. (it starts with "user.", as CONTRACT §3 says)', () => {
    expect(matchesEventType('user.*', 'user.')).toBe(true);
  });

  it('user.* does not match a type that only contains user. later', () => {
    expect(matchesEventType('user.*', 'admin.user.created')).toBe(false);
  });

  it('user.profile.* matches user.profile.updated but not user.created', () => {
    expect(matchesEventType('user.profile.*', 'user.profile.updated')).toBe(true);
    expect(matchesEventType('user.profile.*', 'user.created')).toBe(false);
  });

  it('user.profile.* does not match user.profile', () => {
    expect(matchesEventType('user.profile.*', 'user.profile')).toBe(false);
  });

  it('prefix matching is case-sensitive', () => {
    expect(matchesEventType('User.*', 'user.created')).toBe(false);
  });

  it('an exact pattern matches only itself', () => {
    expect(matchesEventType('user.created', 'user.created')).toBe(true);
    expect(matchesEventType('user.created', 'user.created.v2')).toBe(false);
    expect(matchesEventType('user.created', 'user.create')).toBe(false);
    expect(matchesEventType('user', 'user.created')).toBe(false);
  });

  it('an exact pattern is case-sensitive', () => {
    expect(matchesEventType('user.created', 'User.Created')).toBe(false);
  });

  it.each(['user*', '*.created', 'user.', '', 'user.*.created'])('the invalid pattern %j matches nothing', (pattern) => {
    expect(matchesEventType(pattern, 'user.created')).toBe(false);
    expect(matchesEventType(pattern, pattern)).toBe(false);
  });

  it('an invalid event type matches no pattern, not even *', () => {
    expect(matchesEventType('*', '')).toBe(false);
    expect(matchesEventType('*', 'has space')).toBe(false);
  });

  it('never throws on non-string input', () => {
    expect(matchesEventType(null as unknown as string, 'a')).toBe(false);
    expect(matchesEventType('*', undefined as unknown as string)).toBe(false);
  });
});

describe('matchesAny', () => {
  it('is true when one pattern matches', () => {
    expect(matchesAny(['invoice.*', 'user.created'], 'user.created')).toBe(true);
  });

  it('is false when none matches', () => {
    expect(matchesAny(['invoice.*', 'user.deleted'], 'user.created')).toBe(false);
  });

  it('is false for an empty list', () => {
    expect(matchesAny([], 'user.created')).toBe(false);
  });

  it('ignores invalid patterns in the list', () => {
    expect(matchesAny(['user*', 'user.*'], 'user.created')).toBe(true);
    expect(matchesAny(['user*'], 'user.created')).toBe(false);
  });
});
