// The HTML of a table panel. The table arrives by postMessage; the page mounts the notebook renderer's
// table widget (dist/renderer.js, the same code the notebook output uses) and falls back to a plain
// table built with textContent (escaped by construction) when that module cannot be loaded.
export function tablePageHtml(opts: { cspSource: string; nonce: string; rendererUri?: string; title: string }): string {
  const { cspSource, nonce, rendererUri, title } = opts;
  const esc = (s: string) =>
    s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${cspSource} 'unsafe-inline'; script-src 'nonce-${nonce}' ${cspSource}; font-src ${cspSource};">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>
 body { padding: 0 8px; color: var(--vscode-foreground); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
 #rows { margin: 6px 0; opacity: .8 }
 table.plain { border-collapse: collapse; }
 table.plain th, table.plain td { border: 1px solid var(--vscode-panel-border); padding: 2px 6px; text-align: left; white-space: nowrap; }
 #root { height: calc(100vh - 40px); }
</style></head>
<body>
<div id="rows" data-testid="row-count">Loading…</div>
<div id="root"></div>
<script nonce="${nonce}" type="module">
const vscode = acquireVsCodeApi();
const rendererUri = ${JSON.stringify(rendererUri ?? null)};
function revive(p) {
  return { rowCount: p.rowCount, columns: p.columns.map((c) => c.values
    ? { ...c, values: Float64Array.from(c.values, (v) => (v === null ? NaN : v)) }
    : { ...c, codes: Int32Array.from(c.codes) }) };
}
function cell(c, i) {
  if (c.values) { const v = c.values[i]; return Number.isNaN(v) ? '' : c.kind === 'time' ? new Date(v).toISOString() : String(v); }
  const k = c.codes[i]; if (k < 0) return ''; const d = c.dict[k]; return Array.isArray(d) ? JSON.stringify(d) : d;
}
function plain(root, t, limit) {
  const table = document.createElement('table'); table.className = 'plain';
  const head = table.createTHead().insertRow();
  for (const c of t.columns) { const th = document.createElement('th'); th.textContent = c.name; head.appendChild(th); }
  const body = table.createTBody();
  for (let i = 0; i < Math.min(t.rowCount, limit); i++) {
    const tr = body.insertRow(); for (const c of t.columns) tr.insertCell().textContent = cell(c, i);
  }
  root.replaceChildren(table);
}
window.addEventListener('message', async (e) => {
  if (e.data?.type !== 'table') return;
  const t = revive(e.data.table);
  const rows = document.getElementById('rows');
  const root = document.getElementById('root');
  rows.textContent = t.rowCount + ' rows × ' + t.columns.length + ' columns';
  try {
    if (!rendererUri) throw new Error('no renderer');
    const mod = await import(rendererUri);
    mod.mountTable(root, t, { info: { title: e.data.title } });
    document.body.dataset.view = 'renderer';
  } catch (err) {
    const limit = 5000;
    plain(root, t, limit);
    if (t.rowCount > limit) rows.textContent += ' (plain view: first ' + limit + ' shown; open the file for all)';
    document.body.dataset.view = 'plain';
  }
  vscode.postMessage({ type: 'shown', view: document.body.dataset.view });
});
vscode.postMessage({ type: 'ready' });
</script>
</body></html>`;
}
