/**
 * Parsed and evaluated test inputs, each computed at most once per vitest worker.
 *
 * The `units` vitest project (test/core, store, worker, features, ui, app) runs with `isolate: false`,
 * so this module, and with it every memo below, is shared by all of its spec files: the run
 * files of ../shared are parsed and judged once per `vitest run`, not once per spec.
 *
 * Rules for users:
 * - Call these in `beforeAll` or inside tests, never in a `describe` body (vitest runs describe
 *   bodies at collection, also for skipped suites, and that time shows up as "import").
 * - Treat what they return as read-only. A spec that changes a session (what-if is fine: it does
 *   not change the session; `useData`/`finish` are not) or needs other options builds its own
 *   `InspectSession` from `sharedRun(file)` / `sharedVersions(domain)`.
 * - Shared-data loaders throw when ../shared is missing: guard the suite with `describeShared`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildDb, DOMAIN_TABLES, type Domain } from '../../src/core/model/data/db';
import { KNOWN_DATA_VERSIONS, type DataVersion } from '../../src/core/model/data/versions';
import { readResultsFile } from '../../src/core/model/episode/results-file';
import type { EpisodeRecord } from '../../src/core/model/episode/types';
import { evaluateFile, type FileEvaluation } from './evaluate-file';
import { readShared, SHARED_DIR, sharedDb } from './shared';

function memo<K, V>(make: (key: K) => V): (key: K) => V {
  const cache = new Map<K, V>();
  return (key) => {
    if (!cache.has(key)) cache.set(key, make(key));
    return cache.get(key)!;
  };
}

const once = <V>(make: () => V): (() => V) => {
  const m = memo<0, V>(make);
  return () => m(0);
};

/** The repository root. */
export const ROOT = resolve(import.meta.dirname, '../..');

// ---- ../shared ----------------------------------------------------------------------------

/** The results files in ../shared/runs (names, sorted). Cheap: fine at collection for `describe.each` inside `describeShared`. */
export const sharedRunFiles = once((): readonly string[] =>
  readdirSync(join(SHARED_DIR, 'runs'))
    .filter((f) => f.endsWith('.json'))
    .sort(),
);

/** The episodes of ../shared/runs/<file>. */
export const sharedRun = memo((file: string): readonly EpisodeRecord[] => readResultsFile(readShared('runs', file)));

/** τ-bench's verdicts for ../shared/runs/<file> (../shared/expected/<name>.expected.json), as plain JSON. */
export const sharedExpectedRaw = memo((file: string): unknown => JSON.parse(readShared('expected', file.replace(/\.json$/, '.expected.json'))));
export const sharedExpected = <T>(file: string): readonly T[] => sharedExpectedRaw(file) as readonly T[];

/** Every known τ-bench data version of a domain, with its DB from ../shared/tau-bench. */
export const sharedVersions = memo((domain: Domain): readonly DataVersion[] =>
  KNOWN_DATA_VERSIONS.map((k) => ({ commit: k.commit, known: k, db: sharedDb(k.commit, domain), source: 'shared' })),
);

/**
 * ../shared/runs/<file> judged as the CLI judges it (auto-detected domain, data version and rule;
 * every episode evaluated). Read-only: see the rules above.
 */
export const evaluatedSharedRun = memo((file: string): FileEvaluation => evaluateFile(sharedRun(file), sharedVersions));

// ---- sample-runs (in the repository) ---------------------------------------------------------

/** The text of sample-runs/runs/retail-sample.json. */
export const sampleRunText = once((): string => readFileSync(join(ROOT, 'sample-runs/runs/retail-sample.json'), 'utf8'));

/** The episodes of the sample run. */
export const sampleRun = once((): readonly EpisodeRecord[] => readResultsFile(sampleRunText()));

/** The invented retail data of sample-runs/data as a data version (no τ-bench commit). */
export const sampleVersion = once((): DataVersion => {
  const texts = Object.fromEntries(
    DOMAIN_TABLES.retail.map((t) => [t, readFileSync(join(ROOT, `sample-runs/data/tau_bench/envs/retail/data/${t}.json`), 'utf8')]),
  );
  return { commit: 'sample', known: null, db: buildDb('retail', texts), source: 'sample-runs/data' };
});

/** The sample run judged on the sample data. Read-only. */
export const evaluatedSample = once((): FileEvaluation => evaluateFile(sampleRun(), () => [sampleVersion()]));
