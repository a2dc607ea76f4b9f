import { html, SafeHtml } from '../html';
import { csrfField, errorBox, type Feedback } from './layout';

export interface FormCard {
  id: string;
  heading: string;
  /** Under the heading (what the form does). */
  hint?: SafeHtml;
  /** Why the form was last refused: the page's view, which carries it. */
  feedback?: Pick<Feedback, 'error' | 'details'>;
  action: string;
  csrfToken: string;
  fields: SafeHtml;
  submit: string;
  /** The submit button's class (e.g. `secondary`); the primary style without. */
  submitClass?: string;
}

export function formCard(card: FormCard): SafeHtml {
  return html`<section aria-labelledby="${card.id}" class="card">
  <h2 id="${card.id}">${card.heading}</h2>
  ${card.hint}
  ${errorBox(card.feedback?.error, card.feedback?.details)}
  <form class="stack" method="post" action="${card.action}">
    ${csrfField(card.csrfToken)}
    ${card.fields}
    <div class="actions"><button type="submit"${card.submitClass && html` class="${card.submitClass}"`}>${card.submit}</button></div>
  </form>
</section>`;
}
