/** Given by the code-cache loader (src/cli/code-cache/loader.ts) to the bundle's body: its own `import()`. */
declare const __tauInspectImport: ((specifier: string) => Promise<unknown>) | undefined;

/**
 * `import(specifier)` at run time. Under the code-cache loader the body is a script compiled by `vm.Script`, whose
 * own `import()` V8 forgets how to resolve once the script comes from the code cache (Node 20: "A dynamic import
 * callback was not specified"), so the loader's `import()` is used.
 */
export const importModule = (specifier: string): Promise<unknown> =>
  typeof __tauInspectImport === 'function' ? __tauInspectImport(specifier) : import(specifier);
