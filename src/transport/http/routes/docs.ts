import { readFileSync } from 'node:fs';
import path from 'node:path';
import { html, SafeHtml } from '../dashboard/html';
import { defineRoute } from '../route';
import { staticAssets } from '../static-assets';

/** Redoc's inline styles and blob: worker are allowed on /docs alone; still no inline or foreign script. */
const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
  "form-action 'none'",
].join('; ');

/** Starts Redoc on the page; an external file, so the policy needs no 'unsafe-inline' script. */
const INIT_SCRIPT = `(function () {
  var target = document.getElementById('redoc');
  if (!window.Redoc || !target) return;
  window.Redoc.init('/openapi.json', {
    expandResponses: '200,201,202',
    hideDownloadButton: false,
    jsonSampleExpandLevel: 3,
    theme: { typography: { fontFamily: 'system-ui, -apple-system, Segoe UI, sans-serif', headings: { fontFamily: 'system-ui, -apple-system, Segoe UI, sans-serif' } } }
  }, target, function (error) {
    if (error) return;
    var fallback = document.getElementById('reference');
    if (fallback) fallback.hidden = true;
    document.documentElement.classList.add('redoc-ready');
  });
})();
`;

/** The renderer's files, with the bundle's one outside request (the Redocly badge's image) pointed at an empty image. */
const docsAssets = staticAssets('/docs/assets/', () => {
  const bundle = path.join(path.dirname(require.resolve('redoc/package.json')), 'bundles', 'redoc.standalone.js');
  const redoc = readFileSync(bundle, 'utf8').replaceAll('https://cdn.redoc.ly/redoc/logo-mini.svg', 'data:,');
  return [
    ['redoc.standalone.js', Buffer.from(redoc, 'utf8'), 'text/javascript; charset=utf-8'],
    ['docs.js', Buffer.from(INIT_SCRIPT, 'utf8'), 'text/javascript; charset=utf-8'],
  ];
});

export const serveDocsAssets = docsAssets.serve;

/** `GET /openapi.json`, and `GET /docs`: a server-rendered operation list of it (readable without JavaScript) until Redoc replaces it. */
export function docsRoutes(getDocument: () => object) {
  let page: string | undefined;
  return [
    defineRoute({
      method: 'get',
      path: '/openapi.json',
      summary: 'This OpenAPI 3.1 document',
      tags: ['Operations'],
      responses: { 200: { description: 'The OpenAPI document.' } },
      handler: (ctx) => {
        ctx.body = getDocument();
      },
    }),
    defineRoute({
      method: 'get',
      path: '/docs',
      summary: 'Human-readable API reference',
      tags: ['Operations'],
      responses: { 200: { description: 'An HTML page.' } },
      handler: (ctx) => {
        page ??= renderDocsPage(getDocument() as OpenApiDocument).toString();
        ctx.type = 'text/html; charset=utf-8';
        ctx.set('Content-Security-Policy', DOCS_CSP);
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.set('Referrer-Policy', 'same-origin');
        ctx.body = page;
      },
    }),
  ];
}

// The parts of an OpenAPI 3.1 document the server-rendered list shows.
interface Schema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  $ref?: string;
}
interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string }>;
}
interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  paths?: Record<string, Record<string, Operation>>;
}

/** Text with `code` spans, as the descriptions use them; everything escaped. */
function prose(text: string | undefined): SafeHtml {
  if (!text) return html``;
  return html`${text.split(/(`[^`]+`)/).map((part) => (part.startsWith('`') && part.endsWith('`') && part.length > 2 ? html`<code>${part.slice(1, -1)}</code>` : part))}`;
}

function typeOf(schema: Schema | undefined): string {
  if (!schema) return '';
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (schema.type === 'array') return `array of ${typeOf(schema.items) || 'values'}`;
  return Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? (schema.$ref ? schema.$ref.split('/').pop()! : 'any'));
}

const anchor = (method: string, route: string) => `op-${method}-${route.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;

function operationHtml(method: string, route: string, op: Operation): SafeHtml {
  const params = op.parameters ?? [];
  const body = op.requestBody?.content?.['application/json']?.schema;
  const fields = Object.entries(body?.properties ?? {});
  return html`<section class="op" id="${anchor(method, route)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code class="path">${route}</code></h3>
<p class="summary">${op.summary ?? ''}</p>
${op.description && html`<p>${prose(op.description)}</p>`}
${params.length > 0 && html`<h4>Parameters</h4><dl>${params.map((p) => html`<dt><code>${p.name}</code> <span class="meta">${p.in}${p.required ? ', required' : ''} · ${typeOf(p.schema)}</span></dt><dd>${prose(p.description ?? p.schema?.description)}</dd>`)}</dl>`}
${fields.length > 0 && html`<h4>Request body (JSON)</h4><dl>${fields.map(([name, s]) => html`<dt><code>${name}</code> <span class="meta">${body?.required?.includes(name) ? 'required' : 'optional'} · ${typeOf(s)}</span></dt><dd>${prose(s.description)}</dd>`)}</dl>`}
<h4>Responses</h4><dl>${Object.entries(op.responses ?? {}).map(([status, r]) => html`<dt><code>${status}</code></dt><dd>${prose(r.description)}</dd>`)}</dl>
</section>`;
}

function renderDocsPage(doc: OpenApiDocument): SafeHtml {
  const byTag = new Map<string, [string, string, Operation][]>();
  for (const [route, item] of Object.entries(doc.paths ?? {})) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? 'Other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), [method, route, op]]);
    }
  }
  const title = `${doc.info.title} ${doc.info.version}`;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · ${title}</title>
<link rel="icon" href="data:,">
<style>
body{font:15px/1.55 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d2330;background:#fff}
#reference{max-width:980px;margin:0 auto;padding:1rem 1.25rem 3rem;overflow-wrap:anywhere}
h1{font-size:1.6rem;margin:.5rem 0}h2{margin-top:2.2rem;border-bottom:1px solid #dde;padding-bottom:.2rem}
h3{font-size:1.05rem;margin:0;display:flex;flex-wrap:wrap;gap:.5rem;align-items:baseline}h4{margin:.8rem 0 .2rem;font-size:.9rem;color:#4a5366}
.op{border:1px solid #dde;border-radius:8px;margin:1rem 0;padding:.8rem 1rem}
.method{display:inline-block;min-width:4rem;font-weight:700;font-size:.8rem;padding:.1rem .4rem;border-radius:4px;color:#fff;text-align:center}
.get{background:#0a7a5a}.post{background:#1f5fbf}.patch{background:#a15c00}.put{background:#6a3fb0}.delete{background:#b3261e}
code{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;background:#f3f4f8;padding:.05rem .3rem;border-radius:3px;overflow-wrap:anywhere}
.path{background:none;padding:0;font-size:14px}.summary{margin:.3rem 0;font-weight:600}
dl{margin:.2rem 0}dt{margin-top:.4rem}dd{margin:.1rem 0 0 1rem;color:#333}.meta{color:#5b6478;font-size:.85rem}
p{overflow-wrap:anywhere}nav ul{columns:2 18rem;padding-left:1.1rem}
.note{background:#f5f7fb;border-left:4px solid #1f5fbf;padding:.5rem .8rem}
</style>
</head>
<body>
<main id="reference">
<h1>${title}</h1>
<p>${prose(doc.info.description)}</p>
<p class="note">The machine-readable document is <a href="/openapi.json">/openapi.json</a>. With JavaScript on, this page becomes an interactive reference.</p>
<nav aria-label="Operations"><ul>${[...byTag].flatMap(([, ops]) => ops.map(([m, r, op]) => html`<li><a href="#${anchor(m, r)}">${m.toUpperCase()} ${r}</a> — ${op.summary ?? ''}</li>`))}</ul></nav>
${[...byTag].map(([tag, ops]) => html`<h2>${tag}</h2>${ops.map(([m, r, op]) => operationHtml(m, r, op))}`)}
</main>
<div id="redoc"></div>
<script src="${docsAssets.url('redoc.standalone.js')}"></script>
<script src="${docsAssets.url('docs.js')}"></script>
</body></html>`;
}
