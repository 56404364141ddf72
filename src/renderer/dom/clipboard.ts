// Copy text from inside a notebook output webview: the async clipboard API when allowed, else execCommand.

export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // Webviews may deny clipboard-write; fall back to a hidden textarea and execCommand('copy').
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('the clipboard is not available here');
}
