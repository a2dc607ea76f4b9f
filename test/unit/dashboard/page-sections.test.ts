import { html } from '../../../src/transport/http/dashboard/html';
import { formCard } from '../../../src/transport/http/dashboard/templates/layout';
import { listSection } from '../../../src/transport/http/dashboard/templates/list-section';

const count = (text: string, pattern: RegExp) => (text.match(pattern) ?? []).length;

describe('a page list section', () => {
  const list = (items: string[]) =>
    String(listSection({ heading: 'Your things', columns: ['Name', { numeric: 'Count' }], items, row: (t) => html`<tr><td>${t}</td></tr>`, empty: 'None yet.' }));

  it('shows one muted line and no table when the list is empty', () => {
    const empty = list([]);
    expect(empty).toContain('<p class="muted">None yet.</p>');
    expect(empty).not.toContain('<table>');
  });

  it('shows a row per item in a scrollable region named by its heading, numeric columns right-aligned', () => {
    const shown = list(['a', '<b>']);
    expect(shown).toContain('<h2 id="list-heading">Your things</h2>');
    expect(shown).toContain('role="region" aria-labelledby="list-heading" tabindex="0"');
    expect(shown).toContain('<th scope="col">Name</th><th scope="col" class="num">Count</th>');
    expect(count(shown, /<tr><td>/g)).toBe(2);
    expect(shown).toContain('<td>&lt;b&gt;</td>');
  });

  it('closes the one section it opens', () => {
    const shown = list(['a']);
    expect([count(shown, /<section/g), count(shown, /<\/section>/g)]).toEqual([1, 1]);
  });
});

describe('a page form card', () => {
  const card = String(
    formCard({ id: 'add-heading', heading: 'Add one', feedback: { error: 'Bad input', details: ['url: Invalid'] }, action: '/dashboard/things', csrfToken: 'tok', fields: html`<input name="url">`, submit: 'Add' }),
  );

  it('posts its fields with the CSRF token to its action', () => {
    expect(card).toContain('<form class="stack" method="post" action="/dashboard/things">');
    expect(card).toContain('value="tok"');
    expect(card).toContain('<input name="url">');
    expect(card).toContain('<button type="submit">Add</button>');
  });

  it('is named by its heading and shows the error of the last submission', () => {
    expect(card).toContain('<section aria-labelledby="add-heading" class="card">');
    expect(card).toContain('<h2 id="add-heading">Add one</h2>');
    expect(card).toContain('<strong>Bad input</strong>');
    expect(card).toContain('<li>url: Invalid</li>');
  });
});
