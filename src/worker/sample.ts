import type { ReadText } from '../core/contract';

const RUNS_DIR = '../../sample-runs/runs/';
const DATA_DIR = '../../sample-runs/data/';

const runs = import.meta.glob<string>('../../sample-runs/runs/*.json', { query: '?raw', import: 'default' });
const data = import.meta.glob<string>('../../sample-runs/data/**/*.json', { query: '?raw', import: 'default' });
const TAU2_DATA_DIR = '../../sample-runs/tau2-data/';
const tau2Data = import.meta.glob<string>('../../sample-runs/tau2-data/**/*.{json,toml}', { query: '?raw', import: 'default' });

/** Names of the sample runs shipped in sample-runs/runs (without `.json`), sorted. */
export const sampleNames: readonly string[] = Object.keys(runs)
  .map((k) => k.slice(RUNS_DIR.length).replace(/\.json$/, ''))
  .sort();

export const hasSampleData = Object.keys(data).length > 0;

export async function sampleRunText(name: string): Promise<string | null> {
  const load = runs[`${RUNS_DIR}${name}.json`];
  return load ? load() : null;
}

/** Reads sample-runs/data like a tau-bench checkout (`tau_bench/envs/<domain>/data/*.json`). */
export const readSampleData: ReadText = async (relativePath) => {
  const load = data[`${DATA_DIR}${relativePath}`];
  return load ? load() : null;
};

export const hasSampleTau2Data = Object.keys(tau2Data).length > 0;

/** Reads sample-runs/tau2-data like a tau2-bench checkout (`data/tau2/domains/<domain>/…`): the invented DBs of τ² sample runs. */
export const readSampleTau2Data: ReadText = async (relativePath) => {
  const load = tau2Data[`${TAU2_DATA_DIR}${relativePath}`];
  return load ? load() : null;
};
