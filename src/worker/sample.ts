import type { ReadText } from '../core/contract';

const RUNS_DIR = '../../sample-runs/runs/';
const DATA_DIR = '../../sample-runs/data/';

const runs = import.meta.glob<string>('../../sample-runs/runs/*.json', { query: '?raw', import: 'default' });
const data = import.meta.glob<string>('../../sample-runs/data/**/*.json', { query: '?raw', import: 'default' });
const TAU2_DATA_DIR = '../../sample-runs/tau2-data/';
const tau2Data = import.meta.glob<string>('../../sample-runs/tau2-data/**/*.{json,toml}', { query: '?raw', import: 'default' });

/** τ² run folders (sample-runs/voice-runs/<name>/): their results.json and simulations/*.json, each read when the sample opens. */
const FOLDERS_DIR = '../../sample-runs/voice-runs/';
const folderTexts = import.meta.glob<string>(['../../sample-runs/voice-runs/*/results.json', '../../sample-runs/voice-runs/*/simulations/*.json'], {
  query: '?raw',
  import: 'default',
});
/**
 * Their audio as URLs of the built app's own files (`?no-inline`: never a data: URL in the bundle); a file is fetched only
 * when its simulation's voice panel asks for it.
 */
const folderAudio = import.meta.glob<string>('../../sample-runs/voice-runs/*/artifacts/**/*.wav', { query: '?no-inline', import: 'default', eager: true });

const folderNames = [...new Set(Object.keys(folderTexts).map((k) => k.slice(FOLDERS_DIR.length).split('/')[0]!))];

/** Names of the sample runs shipped in sample-runs/runs (without `.json`) and the run folders of sample-runs/voice-runs, sorted. */
export const sampleNames: readonly string[] = [...Object.keys(runs).map((k) => k.slice(RUNS_DIR.length).replace(/\.json$/, '')), ...folderNames].sort();

/** How a sample is named: `<name>.json`, or `<name>/` for a run folder. */
export const sampleLabel = (name: string): string => (folderNames.includes(name) ? `${name}/` : `${name}.json`);

/** A sample run folder's files (`results.json`, `simulations/<file>`) with their texts, or null when `name` is not one. */
export async function sampleFolder(name: string): Promise<{ results: string; simulations: { name: string; text: string }[] } | null> {
  const prefix = `${FOLDERS_DIR}${name}/`;
  const results = folderTexts[`${prefix}results.json`];
  if (!folderNames.includes(name) || !results) return null;
  const sims = Object.keys(folderTexts)
    .filter((k) => k.startsWith(`${prefix}simulations/`))
    .sort();
  return {
    results: await results(),
    simulations: await Promise.all(sims.map(async (k) => ({ name: k.slice(`${prefix}simulations/`.length), text: await folderTexts[k]!() }))),
  };
}

/** The URL of a sample run folder's file (`path` relative to the folder), where the app serves it; null when it has none there. */
export function sampleFolderFileUrl(name: string, path: string): string | null {
  return folderAudio[`${FOLDERS_DIR}${name}/${path}`] ?? null;
}

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
