// Element creation. Text goes in as textContent only: data values are never parsed as HTML.

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: { className?: string; text?: string; title?: string; attrs?: Record<string, string> } = {},
  children: Array<HTMLElement | null | undefined> = [],
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.className) el.className = props.className;
  if (props.text !== undefined) el.textContent = props.text;
  if (props.title !== undefined) el.title = props.title;
  if (props.attrs) for (const [k, v] of Object.entries(props.attrs)) el.setAttribute(k, v);
  for (const c of children) if (c) el.appendChild(c);
  return el;
}

export function button(text: string, title: string, onClick: () => void): HTMLButtonElement {
  const b = h('button', { text, title, attrs: { type: 'button' } });
  b.addEventListener('click', onClick);
  return b;
}
