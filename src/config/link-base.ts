/**
 * Where links the platform hands out begin (PUBLIC_URL, `cli account invite --base-url`): an absolute http:// or https://
 * URL to which a path is appended, so no query, fragment or credentials, which would end up inside the link. Undefined
 * when `value` is one, else what is wrong with it.
 */
export function linkBaseFault(value: string): string | undefined {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) return 'must be an absolute http:// or https:// URL';
  if (url.search !== '' || url.hash !== '' || value.includes('?') || value.includes('#')) return 'must have no query (?) or fragment (#): a path is appended to it';
  if (url.username !== '' || url.password !== '') return 'must not hold a user name or password';
  return undefined;
}
