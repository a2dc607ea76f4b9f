/** Dashboard markup is built only by `html`, which escapes all but `html` output: no raw escape hatch. */

const MINT = Symbol('SafeHtml');

export class SafeHtml {
  /** Exported for typing only; outside this module the constructor cannot be called successfully. */
  constructor(token: typeof MINT, private readonly value: string) {
    if (token !== MINT) throw new Error('SafeHtml is created by the html tag only');
  }

  toString(): string {
    return this.value;
  }
}

/** What a template may interpolate: text (escaped), numbers, markup, lists of those, or nothing. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

/** Escapes text for element content and quoted attribute values alike. */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.toString();
  if (Array.isArray(value)) return value.map(render).join('');
  // null, undefined and false render nothing, so `${cond && html`...`}` reads naturally.
  if (value === null || value === undefined || value === false) return '';
  return String(value).replace(/[&<>"'`]/g, (c) => ENTITIES[c]);
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new SafeHtml(MINT, out);
}
