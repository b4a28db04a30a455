/**
 * Fingerprints on real runs, as a function of the runs: the gate (fingerprint.spec.ts) checks one τ-bench run
 * and one τ² run, the soak (test/soak/fingerprint.spec.ts) every run of ../shared/runs and ../shared/tau2/runs;
 * the same assertions. `minEpisodes`/`minSimulations`: how many the runs given hold at least (a loop over
 * nothing proves nothing).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import stringify from 'fast-json-stable-stringify';
import { expect, it } from 'vitest';
import { readTau2Text, tau2Headers, tau2LegacyFingerprints } from '../../../src/core/contract';
import { parseJson, scanList } from '../../../src/core/py/json-parse';
import type { PyValue } from '../../../src/core/py/value';
import { episodeFingerprint, plainJson, stableJson, textFingerprint } from '../../../src/core/view/fingerprint';
import { describeShared, hasShared, readShared, SHARED_DIR, TAU2_DIR } from '../../support/shared';

/** The text the fingerprint was first made of (format 1: `stableJson(v, 1)`). */
export const reference = (v: PyValue): string => stringify(plainJson(v));

/** The fingerprint of an episode as read (its Python values). */
export const asRead = (text: string): string => episodeFingerprint({ raw: parseJson(text) });

/** A τ² simulation's fingerprint as it was first made (format 1: its oldest, `tau2LegacyFingerprints`' last where it differs from today's): sha256 of `stringify({benchmark, task, simulation: {id, task_id, trial, messages}})` of plain JSON. */
function tau2Reference(task: PyValue | null, simulation: PyValue): string {
  const get = (k: string): PyValue => (simulation instanceof Map ? (simulation.get(k) ?? null) : null);
  const picked = { id: plainJson(get('id')), task_id: plainJson(get('task_id')), trial: plainJson(get('trial')), messages: plainJson(get('messages')) };
  return createHash('sha256')
    .update(stringify({ benchmark: 'tau2', task: plainJson(task), simulation: picked }))
    .digest('hex');
}

export const tau2Fingerprints = (text: string): { got: string[]; want: string[] } => {
  const run = readTau2Text(text)!;
  return {
    got: tau2Headers(run).map((h, i) => tau2LegacyFingerprints(run, i).at(-1) ?? h.fingerprint),
    want: run.simulations.map((s) => tau2Reference((run.tasks.get(s.taskId)?.raw ?? null) as PyValue | null, s.raw as PyValue)),
  };
};

/** Every run of ../shared/runs and of ../shared/tau2/runs (names); none without ../shared. */
export const everySharedRun = (): { runs: string[]; tau2Runs: string[] } =>
  hasShared
    ? {
        runs: readdirSync(join(SHARED_DIR, 'runs')).filter((n) => n.endsWith('.json')),
        tau2Runs: readdirSync(join(TAU2_DIR, 'runs')).filter((x) => x.endsWith('.json') && x !== 'sources.json'),
      }
    : { runs: [], tau2Runs: [] };

export function fingerprintCorpusCases(o: { runs: readonly string[]; minEpisodes: number; tau2Runs: readonly string[]; minSimulations: number }): void {
  describeShared('stableJson on real runs', () => {
    it(`is the reference text for every episode of ${o.runs.length} run(s) of ../shared/runs`, () => {
      let n = 0;
      for (const f of o.runs) {
        const episodes = parseJson(readShared('runs', f)) as PyValue[];
        for (const e of episodes) expect(stableJson(e, 1), f).toBe(reference(e));
        n += episodes.length;
      }
      expect(n).toBeGreaterThan(o.minEpisodes);
    });
  });

  describeShared('a τ-bench episode’s fingerprint from its text on real runs', () => {
    it(`is the one of its Python values for every episode of ${o.runs.length} run(s) of ../shared/runs, read from its text in the file`, () => {
      let n = 0;
      for (const f of o.runs) {
        const text = readShared('runs', f);
        const scan = scanList(
          text,
          () => true,
          /\{/,
          (_v, _i, start, end) => text.slice(start, end),
        );
        for (const it of scan?.items ?? []) if (it.ok) expect(textFingerprint(it.value), f).toBe(asRead(it.value));
        n += scan?.items.length ?? 0;
      }
      expect(n).toBeGreaterThan(o.minEpisodes);
    });
  });

  describeShared('a τ² simulation’s fingerprint on real runs', () => {
    it(`is the reference for every simulation of ${o.tau2Runs.length} run(s) of ../shared/tau2/runs`, () => {
      let n = 0;
      for (const f of o.tau2Runs) {
        const { got, want } = tau2Fingerprints(readFileSync(join(TAU2_DIR, 'runs', f), 'utf8'));
        expect(got, f).toEqual(want);
        n += got.length;
      }
      expect(n).toBeGreaterThan(o.minSimulations);
    });
  });
}
