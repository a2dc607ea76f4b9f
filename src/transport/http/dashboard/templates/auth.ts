import { TIERS } from '../../../../domain/limits/tiers';
import { MIN_PASSWORD_LENGTH } from '../../../../services/dashboard-auth-service';
import { INVITE_PATH } from '../../../../services/dashboard-invite-service';
import { html, SafeHtml } from '../html';
import { csrfField, errorBox, type Feedback, page } from './layout';

export interface AuthFormView extends Feedback {
  csrfToken: string;
  email?: string;
}

/** The new-password input of sign-up and of an invite link, with the minimum length as its hint. */
const newPasswordInput = html`<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}" aria-describedby="password-hint">
    <p class="hint" id="password-hint">At least ${MIN_PASSWORD_LENGTH} characters. A passphrase of a few words works well.</p>`;

/** Sign-up's autocomplete lets the browser generate a new password; sign-in's fills the saved one. */
function credentialsForm(view: AuthFormView, action: 'sign-in' | 'sign-up', submit: string): SafeHtml {
  const newAccount = action === 'sign-up';
  return html`<form class="stack card" method="post" action="/dashboard/${action}" novalidate>
  ${csrfField(view.csrfToken)}
  <div class="field">
    <label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="${newAccount ? 'email' : 'username'}" required value="${view.email ?? ''}">
  </div>
  <div class="field">
    <label for="password">Password</label>
    ${newAccount ? newPasswordInput : html`<input id="password" name="password" type="password" autocomplete="current-password" required>`}
  </div>
  <div class="actions"><button type="submit">${submit}</button></div>
</form>`;
}

export function signInPage(view: AuthFormView): SafeHtml {
  return page(
    { title: 'Sign in', narrow: true, notice: view.notice },
    html`<h1>Sign in</h1>
${errorBox(view.error)}
${credentialsForm(view, 'sign-in', 'Sign in')}
<p>New here? <a href="/dashboard/sign-up">Create an account</a>.</p>`,
  );
}

export function signUpPage(view: AuthFormView): SafeHtml {
  return page(
    { title: 'Create an account', narrow: true },
    html`<h1>Create an account</h1>
<p class="lead">Free tier: ${TIERS.free.monthlyQuota} API calls a month, ${TIERS.free.burstPerMinute} a minute. No card needed.</p>
${errorBox(view.error)}
${credentialsForm(view, 'sign-up', 'Create account')}
<p>Already have an account? <a href="/dashboard/sign-in">Sign in</a>.</p>`,
  );
}

export function setPasswordPage(view: Pick<AuthFormView, 'csrfToken' | 'error'> & { token: string; email: string }): SafeHtml {
  return page(
    { title: 'Set your password', narrow: true },
    html`<h1>Set your password</h1>
<p class="lead">Choose the dashboard password for <strong>${view.email}</strong>. This link works once.</p>
${errorBox(view.error)}
<form class="stack card" method="post" action="${INVITE_PATH}/${view.token}" novalidate>
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
