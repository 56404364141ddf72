// A datasource picker's options: each id with its name and "(reference site)" when it is one.
import { h } from './h';

/** Fills a datasource select (id, name, "(reference site)"), keeping its value when still offered. */
export function fillSelect(
  select: HTMLSelectElement,
  options: string[],
  names: ReadonlyMap<string, string> | undefined,
  refs: ReadonlySet<string> = new Set(),
  preferred?: string,
  force = false,
): void {
  const current = select.value;
  select.textContent = '';
  for (const o of options) {
    const name = names?.get(o);
    const opt = h('option', { text: `${o}${name ? ` ${name}` : ''}${refs.has(o) ? ' (reference site)' : ''}` });
    opt.value = o;
    select.appendChild(opt);
  }
  if (preferred && (force || !options.includes(current))) select.value = preferred;
  else if (options.includes(current)) select.value = current;
}
