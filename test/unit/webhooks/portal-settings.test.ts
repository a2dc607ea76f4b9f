import { frameAncestors, imageSources, isLogoUrl, normalizedOrigin, normalizedOrigins } from '../../../src/domain/webhooks/portal-settings';

/** The portal settings end up in the page's CSP header: only exact origins and an https logo pass, nothing that could add a directive. */
describe('portal settings rules', () => {
  it('takes an origin as browsers send it, https anywhere and http only on this machine', () => {
    expect(normalizedOrigin('https://App.Example.com')).toBe('https://app.example.com');
    expect(normalizedOrigin('https://app.example.com:443/')).toBe('https://app.example.com');
    expect(normalizedOrigin('https://app.example.com:8443')).toBe('https://app.example.com:8443');
    expect(normalizedOrigin('http://127.0.0.1:5173')).toBe('http://127.0.0.1:5173');
    expect(normalizedOrigin('http://localhost:3000')).toBe('http://localhost:3000');
    expect(normalizedOrigin('http://[::1]:8080')).toBe('http://[::1]:8080');
    expect(normalizedOrigin('https://bücher.example')).toBe('https://xn--bcher-kva.example');
  });

  it.each([
    'http://app.example.com',
    'https://app.example.com/path',
    'https://app.example.com/?q=1',
    'https://app.example.com/#x',
    'https://user:pw@app.example.com',
    'https://*.example.com',
    "https://a.example 'unsafe-inline'",
    'https://a.example;script-src *',
    'https://a.example;sandbox',
    'https://a.example,b.example',
    'app.example.com',
    'javascript:alert(1)',
    'ftp://app.example.com',
    '*',
    '',
  ])('refuses %j', (value) => {
    expect(normalizedOrigin(value)).toBeUndefined();
  });

  it('stores each origin once, and refuses a list with one bad entry', () => {
    expect(normalizedOrigins(['https://a.example', 'https://A.example:443', 'https://b.example'])).toEqual(['https://a.example', 'https://b.example']);
    expect(normalizedOrigins(['https://a.example', 'https://b.example/x'])).toBeUndefined();
  });

  it('frames nothing without origins, else exactly the origins; images from the logo origin only', () => {
    expect(frameAncestors({ allowed_origins: [] })).toBe("'none'");
    expect(frameAncestors({ allowed_origins: ['https://a.example', 'http://localhost:3000'] })).toBe('https://a.example http://localhost:3000');
    expect(imageSources({ logo_url: null })).toBe("'self'");
    expect(imageSources({ logo_url: 'https://cdn.example.com/a/logo.svg?v=1' })).toBe("'self' https://cdn.example.com");
    expect(isLogoUrl('https://cdn.example.com/logo.png')).toBe(true);
    expect(isLogoUrl('http://cdn.example.com/logo.png')).toBe(false);
    expect(isLogoUrl('data:image/png;base64,AAAA')).toBe(false);
    expect(isLogoUrl('https://cdn.example.com;sandbox/logo.png')).toBe(false);
    expect(isLogoUrl(`https://cdn.example.com/${'a'.repeat(2048)}`)).toBe(false);
  });
});
