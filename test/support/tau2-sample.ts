/** The invented mock sample (sample-runs/runs/tau2-mock-sample.json on sample-runs/tau2-data), edited as JSON or as text, opened as the CLI opens it. */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Tau2Session } from '../../src/core/session/tau2/session';

const ROOT = resolve(import.meta.dirname, '../../sample-runs');

export type SampleRun = { info: Record<string, unknown>; tasks: Record<string, unknown>[]; simulations: Record<string, unknown>[] };

export const mockSampleText = (): string => readFileSync(join(ROOT, 'runs/tau2-mock-sample.json'), 'utf8');

export const mockSampleRead = async (rel: string): Promise<string | null> => {
  for (const r of [rel, rel.replace(/^[0-9a-f]{7,40}\//, '')]) {
    const text = await readFile(join(ROOT, 'tau2-data', r), 'utf8').catch(() => null);
    if (text !== null) return text;
  }
  return null;
};

/** The sample with `edit` applied to its parsed JSON (then written back with JSON.stringify), or a text of one's own. */
export async function mockSample(edit: (run: SampleRun) => void = () => {}, text?: (json: string) => string): Promise<Tau2Session> {
  const run = JSON.parse(mockSampleText()) as SampleRun;
  edit(run);
  const json = JSON.stringify(run);
  return Tau2Session.open(Tau2Session.read(text ? text(json) : json), mockSampleRead);
}
