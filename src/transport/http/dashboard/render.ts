import type { Context } from 'koa';
import { DomainError, type ErrorDetail } from '../../../domain/errors';
import { httpHeadersOf, httpStatusOf } from '../error-status';
import type { SafeHtml } from './html';
import { type NoticeKey, NOTICES } from './templates/notices';

/** Sends a rendered page; the only way dashboard handlers write a body. */
export function sendHtml(ctx: Context, status: number, body: SafeHtml): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = body.toString();
}

/** A page; with a typed error, that error's status and headers (Retry-After) from the one code table. */
export function sendErrorPage(ctx: Context, err: DomainError | undefined, body: SafeHtml): void {
  for (const [name, value] of Object.entries(err ? httpHeadersOf(err) : {})) ctx.set(name, value);
  sendHtml(ctx, err ? httpStatusOf(err) : 200, body);
}

export function seeOther(ctx: Context, location: string): void {
  ctx.redirect(location);
  ctx.status = 303;
}

/** A form field as a string ('' when absent or not a string: forms only ever send strings). */
export function formField(ctx: Context, name: string): string {
  const value = (ctx.request.body as Record<string, unknown> | null | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/** A query parameter as a single string ('' when absent or repeated). */
export function queryField(ctx: Context, name: string): string {
  const value = ctx.query[name];
  return typeof value === 'string' ? value : '';
}

export function queryNotice(ctx: Context): string | undefined {
  const key = queryField(ctx, 'notice');
  return Object.hasOwn(NOTICES, key) ? NOTICES[key as NoticeKey] : undefined;
}

/** A refusal (4xx) is shown on the form that was sent; anything else goes to the error page. */
export function isFormError(err: unknown): err is DomainError {
  return err instanceof DomainError && httpStatusOf(err) < 500;
}

/**
 * A button's action refused for now, nothing it asked for done yet: a conflict (nothing waits any more), the account's
 * limits, or workers that did not take it in time. Shown on the page the button is on, with the error's status.
 */
export function isActionRefusal(err: unknown): err is DomainError {
  return err instanceof DomainError && [409, 429, 503].includes(httpStatusOf(err));
}

/** The error box's text: the error's sentence, and a ValidationError's details as `path: message`. */
export function describeError(err: DomainError): { error: string; details: string[] } {
  const details = (err.data.details ?? []) as ErrorDetail[];
  return { error: err.message, details: details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)) };
}
