// esbuild loads .css as text (esbuild.mjs: loader { '.css': 'text' }).
declare module '*.css' {
  const text: string;
  export default text;
}
