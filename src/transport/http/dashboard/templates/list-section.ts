import { html, HtmlValue, SafeHtml } from '../html';

/** A column heading; `{ numeric }` right-aligns a column of numbers. */
export type Column = string | SafeHtml | { numeric: string };

/** Where a list of cursor pages is: what the Newest and Older links need. */
export interface ListPage {
  nextCursor: string | null;
  isFirstPage: boolean;
}

export function pagination(label: string, noun: string, pageUrl: (cursor?: string) => string, list: ListPage): SafeHtml {
  return html`<nav class="pagination" aria-label="${label}">
    ${!list.isFirstPage && html`<a href="${pageUrl()}">Newest ${noun}</a>`}
    ${list.nextCursor && html`<a href="${pageUrl(list.nextCursor)}">Older ${noun}</a>`}
  </nav>`;
}

export const columnHeading = (column: Column) =>
  typeof column === 'object' && 'numeric' in column ? html`<th scope="col" class="num">${column.numeric}</th>` : html`<th scope="col">${column}</th>`;

/** The table's wrapper scrolls sideways on narrow screens, so it is a focusable region for keyboard users. */
export function listSection<T>(list: {
  heading: string;
  columns: readonly Column[];
  items: readonly T[];
  row: (item: T) => SafeHtml;
  empty: HtmlValue;
  /** Between the heading and the table (a filter form). */
  above?: SafeHtml;
  /** After the table (pagination, a hint). */
  below?: SafeHtml;
}): SafeHtml {
  const table =
    list.items.length === 0
      ? html`<p class="muted">${list.empty}</p>`
      : html`<div class="table-wrap" role="region" aria-labelledby="list-heading" tabindex="0">
  <table>
    <thead><tr>${list.columns.map(columnHeading)}</tr></thead>
    <tbody>
      ${list.items.map(list.row)}
    </tbody>
  </table>
</div>`;
  return html`<section aria-labelledby="list-heading">
  <h2 id="list-heading">${list.heading}</h2>
  ${list.above}
  ${table}
  ${list.below}
</section>`;
}
