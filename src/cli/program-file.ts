import { fileURLToPath } from 'node:url';

/** Given by the code-cache loader (src/cli/code-cache/loader.ts) to the bundle's body it runs: the body's path and the sha256 of its text. */
declare const __tauInspectBody: string | undefined;
declare const __tauInspectBodyHash: string | undefined;

/**
 * The file whose bytes are the running program: the bundle's body under the build's code-cache loader, else (the
 * sources under tsx) this module's file.
 */
export const programFile = (): string => (typeof __tauInspectBody === 'string' ? __tauInspectBody : fileURLToPath(import.meta.url));

/** The sha256 (hex) of the running program's text when the code-cache loader has it (it hashed the body to key its cache), else null. */
export const programHashGiven = (): string | null => (typeof __tauInspectBodyHash === 'string' ? __tauInspectBodyHash : null);
