// The two undici modules src/core/client/undici-request.node.ts loads by path (undici ships no types for them).
// Both are CommonJS: imported, their module.exports is the default export.
declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';

  const request: (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  export default request;
}
declare module 'undici/lib/global.js' {
  import type { Dispatcher } from 'undici';

  const global: { getGlobalDispatcher(): Dispatcher };
  export default global;
}
