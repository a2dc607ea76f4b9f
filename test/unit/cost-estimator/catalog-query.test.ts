import { CATEGORIES, parseCatalogQuery, PROVIDERS } from '../../../src/domain/cost-estimator';
import { ValidationError } from '../../../src/domain/errors';
import { thrownBy } from './fixtures';

describe('GET /api/cost-estimator query', () => {
  it('has no filter by default', () => {
    expect(parseCatalogQuery({})).toStrictEqual({});
  });

  it('accepts a provider, a category, or both', () => {
    expect(parseCatalogQuery({ provider: 'gcp' })).toStrictEqual({ provider: 'gcp' });
    expect(parseCatalogQuery({ category: 'ai_ml' })).toStrictEqual({ category: 'ai_ml' });
    expect(parseCatalogQuery({ provider: 'azure', category: 'cdn' })).toEqual({ provider: 'azure', category: 'cdn' });
  });

  it('ignores other query parameters', () => {
    expect(parseCatalogQuery({ provider: 'aws', _: '1700000000' })).toStrictEqual({ provider: 'aws' });
  });

  it('400 with allowed providers for an unknown provider', async () => {
    const err = await thrownBy(() => parseCatalogQuery({ provider: 'oracle' }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({
      code: 'invalid_request',
      message: 'Unknown provider "oracle". Allowed values: aws, gcp, azure.',
      data: { allowed: [...PROVIDERS], details: [{ path: 'query.provider', message: expect.any(String) }] },
    });
  });

  it('400 with allowed categories for an unknown category', async () => {
    const err = await thrownBy(() => parseCatalogQuery({ provider: 'aws', category: 'quantum' }));
    expect(err).toMatchObject({ code: 'invalid_request', data: { allowed: [...CATEGORIES] } });
  });

  it('is case-sensitive, as the values are lowercase in the spec', async () => {
    expect(await thrownBy(() => parseCatalogQuery({ provider: 'AWS' }))).toMatchObject({ code: 'invalid_request' });
  });

  it('400 for an empty value', async () => {
    expect(await thrownBy(() => parseCatalogQuery({ category: '' }))).toMatchObject({ code: 'invalid_request', data: { allowed: [...CATEGORIES] } });
  });

  it('400 for a repeated parameter', async () => {
    const err = await thrownBy(() => parseCatalogQuery({ provider: ['aws', 'gcp'] }));
    expect(err).toMatchObject({ code: 'invalid_request', data: { allowed: [...PROVIDERS] } });
    expect((err as Error).message).toBe('Unknown provider ["aws","gcp"]. Allowed values: aws, gcp, azure.');
  });

  it('lists every bad parameter in details, and the allowed values of the first', async () => {
    const err = await thrownBy(() => parseCatalogQuery({ provider: 'x', category: 'y' }));
    expect(err).toMatchObject({
      data: { allowed: [...PROVIDERS], details: [{ path: 'query.provider' }, { path: 'query.category' }] },
    });
  });
});
