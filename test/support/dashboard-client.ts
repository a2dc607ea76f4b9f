import { randomBytes } from 'node:crypto';

export interface PageResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Location of a redirect, if any. */
  location: string | null;
}

/**
 * A minimal browser stand-in for API-level dashboard tests: keeps cookies, never follows
 * redirects (tests assert them), posts urlencoded forms like an HTML form does.
 */
export class DashboardClient {
  readonly cookies = new Map<string, string>();
  /** Last Set-Cookie header line per cookie name, to assert its attributes. */
  readonly setCookieLines = new Map<string, string>();

  constructor(
    private readonly baseUrl: string,
    private readonly defaultHeaders: Record<string, string> = {},
  ) {}

  /** A client that looks like it comes from its own client IP (the test platform trusts X-Forwarded-For). */
  static fromNewIp(baseUrl: string): DashboardClient {
    const ip = `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0] % 250)}`;
    return new DashboardClient(baseUrl, { 'X-Forwarded-For': ip });
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(method: string, path: string, options: { form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<PageResponse> {
    const headers: Record<string, string> = { ...this.defaultHeaders, ...options.headers };
    if (this.cookies.size > 0 && headers.Cookie === undefined) headers.Cookie = this.cookieHeader();
    let body: string | undefined;
    if (options.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    }
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      this.setCookieLines.set(name, line);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: res.status, headers: res.headers, text: await res.text(), location: res.headers.get('location') };
  }

  get(path: string, headers?: Record<string, string>): Promise<PageResponse> {
    return this.request('GET', path, { headers });
  }

  post(path: string, form: Record<string, string>, headers?: Record<string, string>): Promise<PageResponse> {
    return this.request('POST', path, { form, headers });
  }

  /** GETs a page and submits its form the way a browser would: with the page's CSRF token. */
  async submit(pagePath: string, action: string, fields: Record<string, string>): Promise<PageResponse> {
    const page = await this.get(pagePath);
    return this.post(action, { _csrf: csrfTokenIn(page.text), ...fields });
  }

  async signUp(email: string, password: string): Promise<PageResponse> {
    return this.submit('/dashboard/sign-up', '/dashboard/sign-up', { email, password });
  }

  async signIn(email: string, password: string): Promise<PageResponse> {
    return this.submit('/dashboard/sign-in', '/dashboard/sign-in', { email, password });
  }
}

export function csrfTokenIn(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('no CSRF token on the page');
  return match[1];
}

export function newEmail(): string {
  return `person-${randomBytes(5).toString('hex')}@example.test`;
}

export const GOOD_PASSWORD = 'correct horse battery staple';
