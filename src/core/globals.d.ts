/**
 * The only host globals core may use, declared by hand because core compiles against plain
 * ES2023 (tsconfig.core.json: no DOM, no Node types). Browsers, workers and Node all provide
 * them. This file is excluded from tsconfig.json, where the DOM and Node libs declare them in full.
 */

interface TextEncoder {
  encode(input?: string): Uint8Array;
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}
declare const TextEncoder: { prototype: TextEncoder; new (): TextEncoder };

interface TextDecoder {
  decode(input?: ArrayBufferView | ArrayBuffer, options?: { stream?: boolean }): string;
}
declare const TextDecoder: { prototype: TextDecoder; new (label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean }): TextDecoder };
