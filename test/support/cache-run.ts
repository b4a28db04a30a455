/**
 * A node process run with a cache folder of its own ($XDG_CACHE_HOME): the cache specs (τ²'s DB cache, τ-bench's data
 * cache) start the CLI this way, one at a time or several at once.
 */
import { spawn, spawnSync } from 'node:child_process';

export interface CacheRun {
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
}

/** `node …args` with `XDG_CACHE_HOME=cache`, to its end. */
export function runWithCache(cache: string, args: readonly string[]): CacheRun {
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, XDG_CACHE_HOME: cache } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The same, started now and resolved at its end (so several run at once). */
export function runWithCacheAsync(cache: string, args: readonly string[]): Promise<CacheRun> {
  return new Promise((ok) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, XDG_CACHE_HOME: cache } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => ok({ code, out, err }));
  });
}
