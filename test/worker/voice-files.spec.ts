import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FolderFile } from '../../src/protocol/wire-types';
import { openRun, sourceLabel, type OpenHooks } from '../../src/worker/read-run';
import { sampleFolderFileUrl, sampleNames } from '../../src/worker/sample';

/**
 * A τ³ voice run folder's other files in the worker: a picked folder's audio is handed on as the very File picked (never
 * read by the worker), by its path inside the folder; a path the folder lacks is null. The sample run folder is a sample
 * (listed, opened from its embedded texts), its audio a URL of the built app's files, not data in the bundle.
 */
const SAMPLE = 'tau2-retail-voice-sample';
const DIR = join(__dirname, '../../sample-runs/voice-runs', SAMPLE);
const AUDIO = 'artifacts/task_voice_cancel_by_mistake/sim_5a0e7c1d-voice-0000-0000-sample000001/audio/both.wav';

const hooks: OpenHooks = { keptEvaluations: 4, wanted: () => true, prefix: () => true };

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

describe('voice run folders in the worker', () => {
  it('a picked folder: its audio is the File picked, by path; a path it lacks is null', async () => {
    const files: FolderFile[] = walk(DIR).map((p) => ({ path: `${SAMPLE}/${relative(DIR, p)}`, file: new File([readFileSync(p)], p.split('/').at(-1)!) }));
    const r = await openRun({ kind: 'folder', name: SAMPLE, files }, hooks);
    expect(r?.tau2?.simulations.length).toBe(2);
    if (!r?.tau2 || !r.file) throw new Error('a τ² run folder with its files');
    const picked = files.find((f) => f.path === `${SAMPLE}/${AUDIO}`)!.file;
    expect(await r.file(AUDIO)).toBe(picked);
    expect(await r.file(AUDIO.replace('sample000001', 'sample000002'))).toBeNull();
    expect(await r.file('../results.json')).toBeNull();
  });

  it('the sample run folder is a sample: listed, opened from its texts, its audio a URL of the app’s files (not a data: URL)', async () => {
    expect(sampleNames).toContain(SAMPLE);
    expect(sourceLabel({ kind: 'sample', name: SAMPLE })).toBe(`${SAMPLE}/`);
    const r = await openRun({ kind: 'sample', name: SAMPLE }, hooks);
    expect(r?.tau2?.simulations.map((s) => s.fullDuplex)).toEqual([true, true]);
    expect(r?.label).toBe(`${SAMPLE}/`);
    const url = sampleFolderFileUrl(SAMPLE, AUDIO);
    expect(url).not.toBeNull();
    expect(url).not.toMatch(/^data:/);
    expect(sampleFolderFileUrl(SAMPLE, AUDIO.replace('sample000001', 'sample000002'))).toBeNull();
  });
});
