// The two undici modules src/core/api/undici-request.ts loads by path (undici ships no types for them).
declare module 'undici/lib/api/api-request.js' {
  const request: unknown;
  export default request;
}
declare module 'undici/lib/global.js' {
  export function getGlobalDispatcher(): unknown;
  export function setGlobalDispatcher(dispatcher: unknown): void;
}
