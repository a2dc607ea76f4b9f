import { estimateRequestSchema, MAX_ITEMS } from '../../../src/domain/cost-estimator';

const item = { provider: 'aws', service: 'Amazon EC2', instance: 'm5.large', quantity: 1 };
const issuesOf = (body: unknown) => {
  const result = estimateRequestSchema.safeParse(body);
  return result.success ? [] : result.error.issues.map((i) => i.path.join('.'));
};

/** CONTRACT §5 request rules: anything here is a 400. */
describe('POST /api/cost-estimator body', () => {
  it('accepts a minimal item (instance, hoursPerMonth and gbPerMonth are optional)', () => {
    expect(issuesOf({ items: [{ provider: 'gcp', service: 'Cloud Storage', quantity: 1 }] })).toEqual([]);
  });

  it('accepts every field', () => {
    expect(issuesOf({ items: [{ ...item, hoursPerMonth: 200, gbPerMonth: 10 }] })).toEqual([]);
  });

  it('needs 1 to 100 items', () => {
    expect(issuesOf({ items: [] })).toEqual(['items']);
    expect(issuesOf({ items: Array(MAX_ITEMS).fill(item) })).toEqual([]);
    expect(issuesOf({ items: Array(MAX_ITEMS + 1).fill(item) })).toEqual(['items']);
    expect(issuesOf({})).toEqual(['items']);
    expect(issuesOf({ items: item })).toEqual(['items']);
  });

  it('refuses an unknown provider', () => {
    expect(issuesOf({ items: [{ ...item, provider: 'oracle' }] })).toEqual(['items.0.provider']);
    expect(issuesOf({ items: [{ ...item, provider: 'AWS' }] })).toEqual(['items.0.provider']);
  });

  it('needs provider, service and quantity', () => {
    expect(issuesOf({ items: [{ instance: 'm5.large' }] }).sort()).toEqual(['items.0.provider', 'items.0.quantity', 'items.0.service']);
  });

  it('needs quantity > 0, as a number', () => {
    expect(issuesOf({ items: [{ ...item, quantity: 0 }] })).toEqual(['items.0.quantity']);
    expect(issuesOf({ items: [{ ...item, quantity: -1 }] })).toEqual(['items.0.quantity']);
    expect(issuesOf({ items: [{ ...item, quantity: '3' }] })).toEqual(['items.0.quantity']);
    expect(issuesOf({ items: [{ ...item, quantity: 0.001 }] })).toEqual([]);
  });

  it('needs hoursPerMonth between 0 and 744', () => {
    expect(issuesOf({ items: [{ ...item, hoursPerMonth: 0 }] })).toEqual([]);
    expect(issuesOf({ items: [{ ...item, hoursPerMonth: 744 }] })).toEqual([]);
    expect(issuesOf({ items: [{ ...item, hoursPerMonth: 744.5 }] })).toEqual(['items.0.hoursPerMonth']);
    expect(issuesOf({ items: [{ ...item, hoursPerMonth: -1 }] })).toEqual(['items.0.hoursPerMonth']);
  });

  it('needs gbPerMonth >= 0', () => {
    expect(issuesOf({ items: [{ ...item, gbPerMonth: 0 }] })).toEqual([]);
    expect(issuesOf({ items: [{ ...item, gbPerMonth: -0.5 }] })).toEqual(['items.0.gbPerMonth']);
  });

  it('refuses an empty service or instance', () => {
    expect(issuesOf({ items: [{ ...item, service: '' }] })).toEqual(['items.0.service']);
    expect(issuesOf({ items: [{ ...item, instance: '' }] })).toEqual(['items.0.instance']);
  });

  it('refuses unknown fields, so a misspelt usage field cannot silently default', () => {
    expect(issuesOf({ items: [{ ...item, hoursPerMonht: 10 }] })).toEqual(['items.0']);
    expect(issuesOf({ items: [item], currency: 'EUR' })).toEqual(['']);
  });

  it('names the failing item by index', () => {
    expect(issuesOf({ items: [item, item, { ...item, quantity: 0 }] })).toEqual(['items.2.quantity']);
  });
});

describe('POST /api/cost-estimator body messages', () => {
  const messages = (body: unknown) => {
    const result = estimateRequestSchema.safeParse(body);
    return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
  };

  it('says which fields are missing and which are of the wrong kind', () => {
    expect(messages({ items: [{ provider: 'oracle', quantity: 0 }] })).toEqual({
      'items.0.provider': 'must be one of: aws, gcp, azure',
      'items.0.service': 'is required',
      'items.0.quantity': 'must be greater than 0',
    });
    expect(messages({ items: [{ ...item, hoursPerMonth: 800 }] })).toEqual({ 'items.0.hoursPerMonth': 'must be between 0 and 744' });
    expect(messages({})).toEqual({ items: 'is required' });
  });
});
