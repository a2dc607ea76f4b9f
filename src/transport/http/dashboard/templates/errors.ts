import type { ActiveSession } from '../../../../services/dashboard-auth-service';
import { html, SafeHtml } from '../html';
import { page } from './layout';

const TITLES: Record<number, string> = {
  400: 'That request could not be handled',
  403: 'Request refused',
  404: 'Page not found',
  405: 'Not allowed here',
  409: 'That cannot be done right now',
  413: 'Too much data',
  422: 'That request could not be handled',
  429: 'Too many requests',
  503: 'Temporarily unavailable',
};

export function errorPage(status: number, message: string, session?: ActiveSession): SafeHtml {
  const title = TITLES[status] ?? 'Something went wrong';
  return page(
    { title, session },
    html`<h1>${title}</h1>
<div class="error-box" role="alert"><p>${message}</p></div>
<p><a href="${session ? '/dashboard' : '/dashboard/sign-in'}">Back to the dashboard</a></p>`,
  );
}
