import { html, SafeHtml } from '../html';
import { type AuthFormView, newPasswordInput } from './auth';
import { csrfField, errorBox, page } from './layout';

export interface SetPasswordView extends Pick<AuthFormView, 'csrfToken' | 'error'> {
  action: string;
  email: string;
}

export function setPasswordPage(view: SetPasswordView): SafeHtml {
  return page(
    { title: 'Set your password', narrow: true },
    html`<h1>Set your password</h1>
<p class="lead">Choose the dashboard password for <strong>${view.email}</strong>. This link works once.</p>
${errorBox(view.error)}
<form class="stack card" method="post" action="${view.action}" novalidate>
  ${csrfField(view.csrfToken)}
  <input type="hidden" name="email" autocomplete="username" value="${view.email}">
  <div class="field">
    <label for="password">New password</label>
    ${newPasswordInput}
  </div>
  <div class="actions"><button type="submit">Set password and sign in</button></div>
</form>`,
  );
}

const TITLES = { used: 'This link has been used', expired: 'This link has expired', unknown: 'This link is not valid' } as const;

/** A used, expired or unknown link: what happened and what to do next. */
export function inviteUnusablePage(reason: keyof typeof TITLES, message: string): SafeHtml {
  return page(
    { title: TITLES[reason], narrow: true },
    html`<h1>${TITLES[reason]}</h1>
<div class="error-box" role="alert"><p>${message}</p></div>
<p>Operators create a new link with <code>npm run --silent cli -- account invite --account acct_...</code>.</p>
<p><a href="/dashboard/sign-in">Go to sign in</a></p>`,
  );
}
