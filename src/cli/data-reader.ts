import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReadText } from '../core/contract';

/** Reads τ-bench data files under a directory or URL base; resolves null for a missing file. */
export function dataReader(root: string): ReadText {
  if (/^https?:\/\//.test(root)) {
    const base = root.replace(/\/+$/, '');
    return async (rel) => {
      const res = await fetch(`${base}/${rel}`);
      if (res.status === 404) return null;
      if (!res.ok) throw new Error(`GET ${base}/${rel}: HTTP ${res.status}`);
      return res.text();
    };
  }
  return async (rel) => {
    try {
      return await readFile(join(root, rel), 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return null;
      throw e;
    }
  };
}
