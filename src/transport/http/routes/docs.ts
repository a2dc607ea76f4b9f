import { defineRoute } from '../route';

/** `GET /openapi.json` serves the document generated from the routes' own zod schemas. */
export function openApiRoute(getDocument: () => object) {
  return defineRoute({
    method: 'get',
    path: '/openapi.json',
    summary: 'This OpenAPI 3.1 document',
    tags: ['Operations'],
    responses: { 200: { description: 'The OpenAPI document.' } },
    handler: (ctx) => {
      ctx.body = getDocument();
    },
  });
}

/** `GET /docs` renders the document without any CDN: a self-contained page that reads /openapi.json. */
export const docsPage = defineRoute({
  method: 'get',
  path: '/docs',
  summary: 'Human-readable API reference',
  tags: ['Operations'],
  responses: { 200: { description: 'An HTML page.' } },
  handler: (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Content-Security-Policy', "default-src 'self'; script-src 'unsafe-inline' 'self'; style-src 'unsafe-inline'");
    ctx.body = DOCS_HTML;
  },
});

const DOCS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:980px;padding:1rem;color:#1d2330}
h1{font-size:1.6rem}h2{margin-top:2rem;border-bottom:1px solid #ddd}
.op{border:1px solid #dde;border-radius:6px;margin:.6rem 0;padding:.4rem .8rem}
.m{display:inline-block;min-width:4.2rem;font-weight:700;text-transform:uppercase}
.get{color:#0a7}.post{color:#06c}.patch{color:#b70}.delete{color:#c22}
pre{background:#f5f6fa;padding:.6rem;overflow:auto;font-size:12px}
summary{cursor:pointer}
</style></head>
<body><h1 id="title">API reference</h1><p id="desc"></p><div id="ops">Loading /openapi.json…</div>
<script>
fetch('/openapi.json').then(r=>r.json()).then(doc=>{
  document.getElementById('title').textContent=doc.info.title+' '+doc.info.version;
  document.getElementById('desc').textContent=doc.info.description||'';
  const byTag={};
  for(const [p,item] of Object.entries(doc.paths||{}))for(const [m,op] of Object.entries(item)){
    const t=(op.tags&&op.tags[0])||'Other';(byTag[t]=byTag[t]||[]).push([m,p,op]);}
  const root=document.getElementById('ops');root.textContent='';
  for(const [tag,ops] of Object.entries(byTag)){
    const h=document.createElement('h2');h.textContent=tag;root.appendChild(h);
    for(const [m,p,op] of ops){
      const d=document.createElement('details');d.className='op';
      const s=document.createElement('summary');
      const mm=document.createElement('span');mm.className='m '+m;mm.textContent=m;
      s.appendChild(mm);s.appendChild(document.createTextNode(' '+p+' — '+(op.summary||'')));
      d.appendChild(s);
      const pre=document.createElement('pre');pre.textContent=JSON.stringify(op,null,2);d.appendChild(pre);
      root.appendChild(d);}}
});
</script></body></html>`;
