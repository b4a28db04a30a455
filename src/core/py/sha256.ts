import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { createSHA256, type IHasher } from 'hash-wasm';

/** An incremental sha256 over UTF-8 text whose state can be saved and resumed. */
export interface Sha256Stream {
  update(data: string | Uint8Array): void;
  save(): unknown;
  load(state: unknown): void;
  hex(): string;
}

let wasm: IHasher | null = null;

/**
 * A sha256 the host provides (the CLI hands node:crypto's, about 6× the WASM one where the CPU has SHA
 * extensions): `copy` is a midstate. The same function, so every hash is the same; only the speed differs.
 */
export interface HostSha256 {
  update(data: string | Uint8Array): unknown;
  copy(): HostSha256;
  digest(encoding: 'hex'): string;
}

let host: (() => HostSha256) | null = null;

/** Installs (or, with null, removes) the host's sha256: `sha256Stream` hands it out before the WASM one. */
export function setHostSha256(create: (() => HostSha256) | null): void {
  host = create;
}

/**
 * Loads the WebAssembly sha256 (about 3× faster than the pure-TS fallback). Call once at
 * start-up where it is possible to await; everything works without it, only slower.
 */
export async function prepareSha256(): Promise<void> {
  wasm ??= await createSHA256();
}

/** Text up to this many UTF-16 units is encoded into one reused buffer (at most 3 bytes a unit), longer text as the hasher does. */
const ENCODE_UNITS = 1 << 20;
let encodeBuffer: Uint8Array | null = null;
const encoder = new TextEncoder();

class WasmStream implements Sha256Stream {
  constructor(private readonly h: IHasher) {
    h.init();
  }
  update(data: string | Uint8Array): void {
    if (typeof data === 'string' && data.length <= ENCODE_UNITS) {
      // `encodeInto` a buffer kept between calls: no new array per piece of text (many pieces are hashed per episode).
      encodeBuffer ??= new Uint8Array(3 * ENCODE_UNITS);
      const { written } = encoder.encodeInto(data, encodeBuffer);
      this.h.update(encodeBuffer.subarray(0, written));
    } else this.h.update(data);
  }
  save(): unknown {
    return this.h.save();
  }
  load(state: unknown): void {
    this.h.load(state as Uint8Array);
  }
  hex(): string {
    return this.h.digest('hex');
  }
}

class HostStream implements Sha256Stream {
  constructor(private h: HostSha256) {}
  update(data: string | Uint8Array): void {
    this.h.update(data);
  }
  save(): unknown {
    return this.h.copy();
  }
  load(state: unknown): void {
    this.h = (state as HostSha256).copy();
  }
  hex(): string {
    return this.h.digest('hex');
  }
}

class NobleStream implements Sha256Stream {
  private h = sha256.create();
  update(data: string | Uint8Array): void {
    this.h.update(typeof data === 'string' ? utf8ToBytes(data) : data);
  }
  save(): unknown {
    return this.h.clone();
  }
  load(state: unknown): void {
    this.h = (state as ReturnType<typeof sha256.create>).clone();
  }
  hex(): string {
    return bytesToHex(this.h.digest());
  }
}

/** Which implementation `sha256Stream` hands out now: `'wasm'` once `prepareSha256` has resolved, `'host'` once `setHostSha256` gave one. */
export function sha256Backend(): 'host' | 'wasm' | 'fallback' {
  return host ? 'host' : wasm ? 'wasm' : 'fallback';
}

/**
 * Test hook: runs `fn` (synchronously) with the pure-TS fallback even when the WASM sha256 is
 * loaded, then restores it. Nothing in the app or the CLI calls it; it exists so tests can
 * check the fallback users get before (or without) `prepareSha256`.
 */
export function withSha256Fallback<T>(fn: () => T): T {
  const saved = [wasm, host] as const;
  wasm = null;
  host = null;
  try {
    return fn();
  } finally {
    [wasm, host] = saved;
  }
}

/** Which sha256 implementation runs (midstates of one cannot be loaded into the other). */
export const sha256Engine = (): 'host' | 'wasm' | 'noble' => (host ? 'host' : wasm ? 'wasm' : 'noble');

/** A fresh stream. Only one WASM stream may be in use at a time (they share one instance). */
export function sha256Stream(): Sha256Stream {
  if (host) return new HostStream(host());
  return wasm ? new WasmStream(wasm) : new NobleStream();
}
