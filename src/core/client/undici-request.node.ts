// undici's request API, loaded alone. The package's index also loads fetch, WebSocket, EventSource, the
// cache and the mocks: ~20 MB of RSS and ~100 ms that no call of this project needs. Loading only the
// request API and the global dispatcher (an Agent, or whatever the host installed, e.g. a proxy agent)
// halves that, and takes 0.2 MB off the extension bundle. The deep paths are pinned by
// test/unit/core/undici-request.test.ts: an undici update that moves them fails there, not at a user's.
import type { Dispatcher } from 'undici';

type RequestOptions = { dispatcher?: Dispatcher } & Omit<Dispatcher.RequestOptions, 'origin' | 'path'>;
type ResponseData = Dispatcher.ResponseData;

let loaded:
  | Promise<[typeof import('undici/lib/api/api-request.js'), typeof import('undici/lib/global.js')]>
  | undefined;

// Loaded by the first request, not at import: the extension's activation does not pay for it.
function load() {
  loaded ??= Promise.all([import('undici/lib/api/api-request.js'), import('undici/lib/global.js')]);
  return loaded;
}

/** undici's `request(url, options)`: the same call, on the given dispatcher or the global one. */
export async function request(url: URL, options: RequestOptions): Promise<ResponseData> {
  const [api, global] = await load();
  const { dispatcher = global.default.getGlobalDispatcher(), ...rest } = options;
  return api.default.call(dispatcher, {
    ...rest,
    origin: url.origin,
    path: url.search ? `${url.pathname}${url.search}` : url.pathname,
  });
}
