import { html, SafeHtml } from '../html';

/** An empty cell or value. */
export const NONE = html`<span class="muted">—</span>`;

/** Dates as a machine-readable <time> with a fixed, unambiguous UTC text. */
export function time(iso: string | Date | null | undefined): SafeHtml {
  if (!iso) return NONE;
  const date = typeof iso === 'string' ? new Date(iso) : iso;
  const text = `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
  return html`<time datetime="${date.toISOString()}">${text}</time>`;
}

const INTEGER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** Catalog prices have up to 6 decimals (e.g. $0.000016 per GB-second). */
const UNIT_PRICE = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 6 });

export const integer = (n: number): string => (Number.isFinite(n) ? INTEGER.format(n) : 'unlimited');
export const usd = (n: number): string => USD.format(n);
export const unitPrice = (n: number): string => UNIT_PRICE.format(n);

/** The status words of each pill colour; any other word (revoked, cancelled, disabled) is `off`. */
const TONES = {
  ok: ['delivered', 'succeeded', 'active', 'enabled'],
  bad: ['failed', 'failing'],
  wait: ['pending', 'retrying', 'paused'],
};

/** A status word in a coloured pill; the word itself carries the meaning (not only the colour). */
export function badge(status: string): SafeHtml {
  const tone = Object.entries(TONES).find(([, words]) => words.includes(status))?.[0] ?? 'off';
  return html`<span class="badge ${tone}">${status}</span>`;
}

export function period(ms: number): string {
  const hours = Math.round(ms / 3_600_000);
  if (hours % 24 === 0) return hours === 24 ? '1 day' : `${hours / 24} days`;
  return hours === 1 ? '1 hour' : `${hours} hours`;
}

/** Shortens long free text for table cells; the full value stays available elsewhere. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
