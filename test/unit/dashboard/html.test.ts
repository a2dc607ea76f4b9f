import { html, SafeHtml } from '../../../src/transport/http/dashboard/html';

describe('the html template tag', () => {
  it('escapes every interpolated string, in text and in attributes', () => {
    const value = `<script>alert('x')</script> & "quoted" \`tick\``;
    expect(String(html`<p title="${value}">${value}</p>`)).toBe(
      '<p title="&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quoted&quot; &#96;tick&#96;">' +
        '&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quoted&quot; &#96;tick&#96;</p>',
    );
  });

  it('keeps nested templates as markup without escaping them twice', () => {
    const inner = html`<b>${'a & b'}</b>`;
    expect(String(html`<p>${inner}</p>`)).toBe('<p><b>a &amp; b</b></p>');
  });

  it('renders lists item by item and nothing for null, undefined and false', () => {
    expect(String(html`<ul>${['<1>', html`<li>2</li>`]}</ul>`)).toBe('<ul>&lt;1&gt;<li>2</li></ul>');
    expect(String(html`[${null}${undefined}${false}${0}]`)).toBe('[0]');
  });

  it('cannot be bypassed by constructing SafeHtml from outside', () => {
    const Forged = SafeHtml as unknown as new (token: symbol, value: string) => SafeHtml;
    expect(() => new Forged(Symbol('SafeHtml'), '<script>')).toThrow();
  });
});
