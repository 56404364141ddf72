// "Copy as curl" / "Copy as Python": a resolved cell as a request a user can paste into a shell or a
// script. The key is always the environment variable, never the key itself; values from the cell are
// quoted for the target language so no cell text can break out of its string.
import { API_KEY_HEADER, PATHS, serviceUrl } from '../api/paths';
import type { ResolvedCell } from './resolve';

export type SnippetLanguage = 'curl' | 'python';

const KEY_ENV = 'MEASUREMENTS_API_KEY';

interface RequestShape {
  method: 'GET' | 'POST';
  url: string;
  body?: unknown;
  note?: string;
}

function shape(resolved: ResolvedCell, baseUrl: string): RequestShape {
  const base = new URL(baseUrl);
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error(`not an http(s) URL: ${base.protocol}`);
  base.username = '';
  base.password = '';
  const at = (path: string) => serviceUrl(base, path);
  switch (resolved.verb) {
    case 'datasources':
      return { method: 'GET', url: serviceUrl(base, PATHS.datasources, { org: resolved.org }).href };
    case 'report':
      return { method: 'POST', url: at(PATHS.reportRequests).href, body: resolved.request };
    case 'recent':
      return { method: 'POST', url: at(PATHS.recentQuery).href, body: resolved.request };
    case 'follow':
      return {
        method: 'POST',
        url: at(PATHS.recentQuery).href,
        body: { ...resolved.request, replyWithContinuationToken: true },
        note: `then POST ${at(PATHS.continuation).href} with {"org", "continuationToken"} from the x-service-continuation-token reply header`,
      };
    case 'sql':
      throw new Error("A sql cell runs in the notebook's SQL engine: it sends no request to copy.");
    case 'params':
      throw new Error('A params cell declares parameters: it sends no request to copy.');
  }
}

/**
 * Characters a reader does not see as they are: controls (C0, DEL, C1 such as U+009B, the terminal's CSI),
 * format characters (bidi overrides and isolates U+202A-E, U+2066-9, marks U+200E/F, U+061C, zero-width
 * ones, U+FEFF) and line/paragraph separators. A snippet holds them only as escapes, so what is pasted is
 * what is seen.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'gu');

/** `\u202e` (`\U000e0001` past the BMP): the escape of bash/zsh $'…' strings and of Python str literals. */
function codeEscape(ch: string): string {
  const cp = ch.codePointAt(0) as number;
  return cp > 0xffff ? `\\U${cp.toString(16).padStart(8, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`;
}

/**
 * POSIX shell single-quoting: nothing inside is expanded. Text with invisible characters is $'…'-quoted
 * instead (bash, zsh, ksh), each of them written as a \u escape.
 */
function shellQuote(text: string): string {
  if (!INVISIBLE.test(text)) return `'${text.replace(/'/g, `'\\''`)}'`;
  return `$'${text.replace(/[\\']/g, '\\$&').replace(INVISIBLE_ALL, codeEscape)}'`;
}

function curl(r: RequestShape): string {
  const lines = [
    ...(r.note ? [`# ${r.note.replace(/[\r\n]/g, ' ')}`] : []),
    `curl --compressed -sS -X ${r.method} ${shellQuote(r.url)} \\`,
    `  -H "${API_KEY_HEADER}: $${KEY_ENV}"${r.body === undefined ? '' : ' \\'}`,
  ];
  if (r.body !== undefined) {
    lines.push(`  -H 'content-type: application/json' \\`, `  --data-raw ${shellQuote(JSON.stringify(r.body))}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A JSON string literal is also a valid Python string literal; invisible characters as \u escapes. */
const pyString = (text: string) => JSON.stringify(text).replace(INVISIBLE_ALL, codeEscape);

function python(r: RequestShape): string {
  const lines = [
    'import json, os',
    'import requests',
    '',
    ...(r.note ? [`# ${r.note.replace(/[\r\n]/g, ' ')}`] : []),
    `headers = {${pyString(API_KEY_HEADER)}: os.environ[${pyString(KEY_ENV)}]}`,
  ];
  if (r.body === undefined) {
    lines.push(`r = requests.get(${pyString(r.url)}, headers=headers, timeout=120)`);
  } else {
    lines.push(
      `body = json.loads(${pyString(JSON.stringify(r.body))})`,
      `r = requests.post(${pyString(r.url)}, headers=headers, json=body, timeout=120)`,
    );
  }
  lines.push('r.raise_for_status()', 'print(r.text)');
  return `${lines.join('\n')}\n`;
}

export function requestSnippet(resolved: ResolvedCell, baseUrl: string, language: SnippetLanguage): string {
  const r = shape(resolved, baseUrl);
  return language === 'curl' ? curl(r) : python(r);
}
