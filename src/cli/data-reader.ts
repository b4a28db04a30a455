import type { BigIntStats } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReadText } from '../core/contract';

const missing = (e: unknown): boolean => {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};

/**
 * Reads τ-bench data files under a directory or URL base; resolves null for a missing file. With `stamped`, each local
 * file read is handed to it with its `fstat` from before and after the read, and the time the read began (the τ² DB
 * cache's stamps, tau2/db-cache.ts).
 */
export function dataReader(root: string, stamped?: (rel: string, path: string, before: BigIntStats, after: BigIntStats, began: number) => void): ReadText {
  if (/^https?:\/\//.test(root)) {
    const base = root.replace(/\/+$/, '');
    return async (rel) => {
      const res = await fetch(`${base}/${rel}`);
      if (res.status === 404) return null;
      if (!res.ok) throw new Error(`GET ${base}/${rel}: HTTP ${res.status}`);
      return res.text();
    };
  }
  if (stamped !== undefined)
    return async (rel) => {
      const path = join(root, rel);
      const began = Date.now();
      let handle;
      try {
        handle = await open(path, 'r');
      } catch (e) {
        if (missing(e)) return null;
        throw e;
      }
      try {
        const before = await handle.stat({ bigint: true });
        const text = await handle.readFile('utf8');
        stamped(rel, path, before, await handle.stat({ bigint: true }), began);
        return text;
      } finally {
        await handle.close();
      }
    };
  return async (rel) => {
    try {
      return await readFile(join(root, rel), 'utf8');
    } catch (e) {
      if (missing(e)) return null;
      throw e;
    }
  };
}
