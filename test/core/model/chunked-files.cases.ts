/**
 * "A results file read chunk by chunk gives the same episodes as its whole text", as a function of the files:
 * the gate (results-stream.spec.ts) runs it on three small files of ../shared, the soak
 * (test/soak/results-stream.spec.ts) on every file of ../shared/runs and ../shared/forks; the same assertions.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { readResults, ResultsStream } from '../../../src/core/model/episode/results-file';
import type { EpisodeRecord } from '../../../src/core/model/episode/types';
import { jsonDumps } from '../../../src/core/py/json-dumps';
import { describeShared, hasShared, SHARED_DIR } from '../../support/shared';
import { mulberry32 as prng } from '../../support/prng';

/** Cuts `bytes` into chunks: tiny ones (1–7 bytes) over the first `tinyUpTo` bytes, then up to `max`. */
export function chunks(bytes: Uint8Array, rnd: () => number, max: number, tinyUpTo = 0): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length;) {
    const n = at < tinyUpTo ? 1 + Math.floor(rnd() * 7) : 1 + Math.floor(rnd() * max);
    // A fresh copy, as a stream hands out; the reader may not rely on the buffer staying.
    out.push(bytes.slice(at, at + n));
    at += n;
  }
  return out;
}

export function streamed(bytes: Uint8Array, parts: readonly Uint8Array[]): { records: EpisodeRecord[] | null; visited: number[]; pushedAll: boolean } {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const visited: number[] = [];
  const s = new ResultsStream(
    (a, b) => decoder.decode(bytes.subarray(a, b)),
    (r) => visited.push(r.index),
  );
  let pushedAll = true;
  for (const p of parts) if (!s.push(p)) pushedAll = false;
  const file = s.end();
  return { records: file ? [...file.records] : null, visited, pushedAll };
}

export const fingerprint = (r: EpisodeRecord): string =>
  JSON.stringify({
    i: r.index,
    t: r.taskId,
    tr: r.trial,
    rw: r.recordedReward,
    p: r.problem,
    e: r.runError,
    x: r.extra,
    task: r.task ? [r.task.actions.map((a) => [a.name, jsonDumps(a.kwargs)]), r.task.outputs, r.task.instruction] : null,
  }) +
  jsonDumps(r.raw) +
  r.traj.length;

/** Every results file of ../shared/runs and ../shared/forks (`runs/…`, `forks/…`), sorted; none without ../shared. */
export const sharedResultsFiles = (): string[] =>
  hasShared
    ? [
        ...readdirSync(join(SHARED_DIR, 'runs'))
          .filter((f) => f.endsWith('.json'))
          .map((f) => join('runs', f)),
        ...readdirSync(join(SHARED_DIR, 'forks'))
          .filter((f) => f.endsWith('.json'))
          .map((f) => join('forks', f)),
      ].sort()
    : [];

export function chunkedFileCases(name: string, files: readonly string[]): void {
  describeShared(name, () => {
    const bytesOf = new Map<string, Uint8Array>();
    beforeAll(() => {
      for (const f of files) bytesOf.set(f, new Uint8Array(readFileSync(join(SHARED_DIR, f))));
    });

    it.each(files)('%s', (f) => {
      const bytes = bytesOf.get(f)!;
      const text = new TextDecoder().decode(bytes);
      let want: EpisodeRecord[] | string;
      try {
        want = readResults(text, { lazy: true }).records;
      } catch (e) {
        want = String(e);
      }
      const rnd = prng(f.length * 7919);
      // The whole text's fingerprints, made once for the three cuttings below.
      let wantPrints: string[] | null = null;
      for (const max of [64, 65_536, 4 << 20]) {
        const got = streamed(bytes, chunks(bytes, rnd, max, 50_000));
        if (typeof want === 'string' || f.includes('tau2')) {
          // Not a list of episodes: handed back to the whole-text reader.
          expect(got.records, `${f} (chunks ≤ ${max})`).toBeNull();
          continue;
        }
        if (got.records === null) {
          // Only a file the whole-text reader found unusual may be handed back.
          expect(
            readResults(text).notes.length + readResults(text).records.filter((r) => r.raw === null).length,
            `${f} handed back without damage`,
          ).toBeGreaterThan(0);
          continue;
        }
        expect(got.visited, f).toEqual(want.map((r) => r.index));
        expect(got.records.length, f).toBe(want.length);
        wantPrints ??= want.map(fingerprint);
        got.records.forEach((r, i) => expect(fingerprint(r), `${f} episode ${i} (chunks ≤ ${max})`).toBe(wantPrints![i]));
      }
    });

    it('every file in runs/ is read plainly (none is handed back)', () => {
      for (const f of files.filter((x) => x.startsWith('runs'))) {
        const bytes = bytesOf.get(f)!;
        expect(streamed(bytes, [bytes]).records, f).not.toBeNull();
      }
    });
  });
}
