/**
 * What a CLI worker thread runs: the module at `moduleUrl` (the bundle, when bundled — every module's
 * `import.meta.url` is then the bundle's, whose entry leaves `main` alone in a worker). From the
 * TypeScript source (tsx), whose loader does not reach worker threads on Node 20, the worker registers
 * tsx's loader first.
 */
export function workerEntry(moduleUrl: string): string {
  // A file URL as a string literal: backslashes are percent-encoded already, quotes are made so (the same URL).
  const literal = (url: string): string => `'${url.replace(/'/g, '%27')}'`;
  const self = literal(moduleUrl);
  if (!moduleUrl.endsWith('.ts')) return `import(${self});`;
  return `import(${literal(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${self}); });`;
}
