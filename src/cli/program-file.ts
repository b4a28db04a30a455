import { fileURLToPath } from 'node:url';

/** Given by the code-cache loader (src/cli/code-cache/loader.ts) to the bundle's body it runs: the body's path. */
declare const __tauInspectBody: string | undefined;

/**
 * The file whose bytes are the running program: the bundle's body under the build's code-cache loader, else (the
 * sources under tsx) this module's file.
 */
export const programFile = (): string => (typeof __tauInspectBody === 'string' ? __tauInspectBody : fileURLToPath(import.meta.url));
