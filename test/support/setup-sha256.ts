/**
 * Vitest setup file: tests hash with the WebAssembly sha256 that the app and the CLI load at
 * start-up (`prepareSha256`). The pure-TS fallback is exercised on purpose in
 * test/core/py/sha256.spec.ts through `withSha256Fallback`.
 */
import { prepareSha256, sha256Backend } from '../../src/core/py/sha256';

await prepareSha256();
if (sha256Backend() !== 'wasm') throw new Error('the WASM sha256 did not load');
