// The HTML of a table panel: a full-height root and one module script that loads the notebook renderer's
// bundle (dist/renderer.js) and hands it the webview API. Everything else (the table in the wire format,
// the toolbar, saving) is the renderer's own code; see src/renderer/panel.ts.
export function tablePageHtml(opts: { cspSource: string; nonce: string; rendererUri: string; title: string }): string {
  const { cspSource, nonce, rendererUri, title } = opts;
  const esc = (s: string) =>
    s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src ${cspSource} 'unsafe-inline'; script-src 'nonce-${nonce}' ${cspSource}; font-src ${cspSource};">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>html, body, #root { height: 100%; margin: 0; } body { padding: 0 8px; box-sizing: border-box; overflow: hidden; }</style>
</head>
<body><div id="root" data-testid="table-panel">Loading…</div>
<script nonce="${nonce}" type="module">import { showPanel } from ${JSON.stringify(rendererUri)}; showPanel(acquireVsCodeApi(), document.getElementById('root'));</script>
</body></html>`;
}
