/**
 * The `/docs` reference page: one self-contained HTML document rendered from the OpenAPI document
 * (no CDN, no external assets: runtimes often have no internet). Endpoint groups, methods, paths,
 * scopes, parameters and schemas, with a filter box. Pure.
 */
type Json = Record<string, unknown>;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

function obj(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

function refName(schema: unknown): string | undefined {
  const ref = obj(schema).$ref;
  return typeof ref === 'string' ? ref.split('/').pop() : undefined;
}

/** A short type label for a schema: `Post`, `array of Post`, `integer`. */
function typeLabel(schema: unknown): string {
  const s = obj(schema);
  const ref = refName(s);
  if (ref) return `<a href="#schema-${escapeHtml(ref)}">${escapeHtml(ref)}</a>`;
  if (s.type === 'array') return `array of ${typeLabel(s.items)}`;
  if (Array.isArray(s.enum)) return s.enum.map((v) => escapeHtml(JSON.stringify(v))).join(' | ');
  if (typeof s.type === 'string') return escapeHtml(s.type + (typeof s.format === 'string' ? ` (${s.format})` : ''));
  if (Array.isArray(s.anyOf)) return s.anyOf.map(typeLabel).join(' | ');
  if (s.type === 'object' && s.properties) return 'object';
  return 'any';
}

function parametersTable(parameters: unknown): string {
  if (!Array.isArray(parameters) || parameters.length === 0) return '';
  const rows = parameters
    .map(obj)
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(String(p.name))}</code></td><td>${escapeHtml(String(p.in))}</td><td>${typeLabel(p.schema)}</td><td>${p.required ? 'yes' : ''}</td></tr>`,
    )
    .join('');
  return `<table><thead><tr><th>parameter</th><th>in</th><th>type</th><th>required</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function bodyLine(operation: Json): string {
  const content = obj(obj(operation.requestBody).content);
  return Object.entries(content)
    .map(([type, media]) => `<p>Body (<code>${escapeHtml(type)}</code>): ${typeLabel(obj(media).schema)}</p>`)
    .join('');
}

function responsesLine(operation: Json): string {
  const items = Object.entries(obj(operation.responses)).map(([status, response]) => {
    const schema = obj(obj(obj(response).content)['application/json']).schema;
    const data = obj(obj(obj(schema).properties).data);
    const shape = schema ? ` ${data && Object.keys(data).length ? `data: ${typeLabel(data)}` : typeLabel(schema)}` : '';
    return `<li><b>${escapeHtml(status)}</b> ${escapeHtml(String(obj(response).description ?? ''))}${shape}</li>`;
  });
  return `<ul class="responses">${items.join('')}</ul>`;
}

function scopeLine(operation: Json): string {
  const scope = operation['x-scope'];
  const conditional = Array.isArray(operation['x-conditional-scopes'])
    ? operation['x-conditional-scopes'].map((c) => ` + <code>${escapeHtml(String(obj(c).scope))}</code> ${escapeHtml(String(obj(c).when ?? ''))}`).join('')
    : '';
  const main = typeof scope === 'string' ? `<code>${escapeHtml(scope)}</code>` : 'any valid key';
  const shown = operation['x-spec-shown'] === false ? ' <span class="note">shape not shown in the reference: our choice</span>' : '';
  return `<p class="scope">Scope: ${main}${conditional}${shown}</p>`;
}

function operationBlock(path: string, method: string, operation: Json): string {
  const id = escapeHtml(String(operation.operationId ?? `${method}-${path}`));
  const search = escapeHtml(`${method} ${path} ${String(operation.summary ?? '')} ${String(operation['x-scope'] ?? '')}`.toLowerCase());
  return `<details class="op" id="op-${id}" data-search="${search}"><summary><span class="m m-${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code> <span class="sum">${escapeHtml(String(operation.summary ?? ''))}</span></summary>${scopeLine(operation)}${parametersTable(operation.parameters)}${bodyLine(operation)}${responsesLine(operation)}</details>`;
}

/** Operations grouped by their first tag (the spec section), in document order. */
function groups(doc: Json): Map<string, string[]> {
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries(obj(doc.paths))) {
    for (const method of METHODS) {
      const operation = obj(obj(item)[method]);
      if (!Object.keys(operation).length) continue;
      const tag = Array.isArray(operation.tags) && typeof operation.tags[0] === 'string' ? operation.tags[0] : 'Other';
      const list = byTag.get(tag) ?? [];
      list.push(operationBlock(path, method, operation));
      byTag.set(tag, list);
    }
  }
  return byTag;
}

function schemasSection(doc: Json): string {
  const schemas = obj(obj(doc.components).schemas);
  const items = Object.entries(schemas).map(
    ([name, schema]) =>
      `<details class="schema" id="schema-${escapeHtml(name)}" data-search="${escapeHtml(name.toLowerCase())}"><summary><code>${escapeHtml(name)}</code></summary><pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre></details>`,
  );
  return `<section><h2>Schemas</h2>${items.join('')}</section>`;
}

const STYLE = `body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:1rem 2rem;color:#1d2330}
h1{margin-bottom:.2rem}h2{border-bottom:1px solid #d8dce4;padding-bottom:.2rem;margin-top:2rem}
code,pre{font-family:ui-monospace,monospace}pre{background:#f4f6f9;padding:.6rem;overflow:auto;font-size:13px}
details.op,details.schema{border:1px solid #d8dce4;border-radius:6px;margin:.35rem 0;padding:.35rem .6rem}
summary{cursor:pointer}.sum{color:#5a6272}.m{display:inline-block;min-width:4.2em;text-align:center;border-radius:4px;color:#fff;font-weight:600;font-size:12px;padding:1px 4px}
.m-get{background:#2f7fd8}.m-post{background:#2e9b5d}.m-put{background:#c28a12}.m-patch{background:#8a5cc2}.m-delete{background:#c8433a}
table{border-collapse:collapse;margin:.4rem 0}td,th{border:1px solid #d8dce4;padding:2px 8px;text-align:left;font-size:14px}
.note{color:#9a5b00;font-size:13px}#filter{width:100%;padding:.45rem;font-size:15px;margin:.6rem 0}.hidden{display:none}`;

const SCRIPT = `const f=document.getElementById('filter');f.addEventListener('input',()=>{const q=f.value.trim().toLowerCase();
document.querySelectorAll('[data-search]').forEach(e=>e.classList.toggle('hidden',q!==''&&!e.dataset.search.includes(q)));
document.querySelectorAll('section[data-group]').forEach(s=>s.classList.toggle('hidden',!s.querySelector('[data-search]:not(.hidden)')));});`;

/**
 * The HTML reference page of an OpenAPI document.
 *
 * @example
 * reply.type('text/html').send(renderDocsPage(buildOpenApiDocument({ serverUrl })));
 */
export function renderDocsPage(doc: Json): string {
  const info = obj(doc.info);
  const server = String(obj(Array.isArray(doc.servers) ? doc.servers[0] : undefined).url ?? '');
  const sections = [...groups(doc)].map(([tag, ops]) => `<section data-group><h2>${escapeHtml(tag)}</h2>${ops.join('')}</section>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(String(info.title ?? 'API reference'))}</title><style>${STYLE}</style></head><body>
<h1>${escapeHtml(String(info.title ?? 'API reference'))}</h1><p>Revision ${escapeHtml(String(info.version ?? ''))}. Base URL <code>${escapeHtml(server)}</code>.
Through the intrabot proxy, authenticate with a proxy key: <code>Authorization: Bearer &lt;proxy key&gt;</code> (or <code>X-Proxy-Key</code>).
The machine-readable document is at <a href="/openapi.json">/openapi.json</a>.</p>
<input id="filter" type="search" placeholder="Filter by path, method, scope or schema" aria-label="Filter">
${sections}${schemasSection(doc)}<script>${SCRIPT}</script></body></html>`;
}
